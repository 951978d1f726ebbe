"""Pure reducers for the state's accumulating fields."""

from __future__ import annotations

from boundloop.domain.conversation import MAX_CONTEXT_TURNS, Turn
from boundloop.domain.models import Evidence, SubQuery


def merge_evidence(left: list[Evidence], right: list[Evidence]) -> list[Evidence]:
    """Union by chunk id: keep the first hop that found a chunk, its best score and rank, and every finder."""
    merged = {e.chunk_id: e for e in left}
    for new in right:
        old = merged.get(new.chunk_id)
        if old is None:
            merged[new.chunk_id] = new
            continue
        merged[new.chunk_id] = old.model_copy(
            update={
                "score": max(old.score, new.score),
                "rank": min(old.rank, new.rank),
                "hop": min(old.hop, new.hop),
                "found_by": list(dict.fromkeys(old.found_by + new.found_by)),
            }
        )
    return list(merged.values())


def merge_subqueries(left: list[SubQuery], right: list[SubQuery]) -> list[SubQuery]:
    """Append sub-queries, ignoring any whose id is already present."""
    seen = {q.id for q in left}
    return left + [q for q in right if q.id not in seen]


def append(left: list, right: list) -> list:
    """Concatenate: spans and executed sub-query ids accumulate in order."""
    return left + right


def add_turns(left: list[Turn], right: list[Turn]) -> list[Turn]:
    """Append a conversation's new turns; only the last `MAX_CONTEXT_TURNS` are kept."""
    return (left + right)[-MAX_CONTEXT_TURNS:]
