"""Reciprocal rank fusion of ranked candidate lists."""

from __future__ import annotations

from boundloop.retrieval.backend import Candidate

RRF_K = 60


def reciprocal_rank_fusion(lists: dict[str, list[Candidate]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fuse named ranked lists: score(d) = sum over lists of 1 / (k + rank). Ties keep first-seen order."""
    fused: dict[str, float] = {}
    for candidates in lists.values():
        for rank, candidate in enumerate(candidates, start=1):
            fused[candidate.chunk_id] = fused.get(candidate.chunk_id, 0.0) + 1.0 / (k + rank)
    return sorted(fused.items(), key=lambda item: -item[1])
