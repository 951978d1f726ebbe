"""Hybrid search over any backend: keyword and dense candidates, fused, assembled into hits.

`EntitledSearcher` is the only search object the loop, the CLI and the LangChain retriever ever get: it is built
for one principal's access filter and cannot be asked to search without it.
"""

from __future__ import annotations

import concurrent.futures
import time

from boundloop.domain.models import SearchMode
from boundloop.domain.names import split_names
from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import Candidate, Encoder, IndexBackend
from boundloop.retrieval.documents import SearchHit
from boundloop.retrieval.errors import IndexStoreError, SearchTimeout
from boundloop.retrieval.fusion import reciprocal_rank_fusion

CANDIDATES_PER_RETRIEVER = 50

_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="boundloop-search")
# a pool of its own: a search running in _POOL must never wait for a free _POOL worker
_KEYWORD_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="boundloop-keyword")


def hybrid_search(
    backend: IndexBackend, encoder: Encoder, query: str, access: AccessFilter, k: int = 10,
    mode: SearchMode = "hybrid", deadline: float | None = None,
) -> list[SearchHit]:
    """The top `k` permitted chunks for `query`; each hit carries every retriever's rank and score.

    With `deadline` (a `time.monotonic()` instant) the keyword query is abandoned there and `SearchTimeout` raised.
    """
    if access.matches_nothing or k <= 0 or not query.strip():
        return []
    depth = max(CANDIDATES_PER_RETRIEVER, k)
    lists: dict[str, list[Candidate]] = {}
    # both retrievers release the GIL (SQLite, BLAS): in hybrid mode the keyword side runs beside the dense side
    keyword = (
        _KEYWORD_POOL.submit(backend.keyword_candidates, query, access, depth, deadline=deadline)
        if mode == "hybrid" else None
    )
    if mode == "title":  # the query lists names ('a | b'); the hits are the documents those names title
        lists["title"] = backend.title_candidates(split_names(query), access, k)
    if mode == "keyword":
        lists["bm25"] = backend.keyword_candidates(query, access, depth, deadline=deadline)
    if mode in ("vector", "hybrid"):
        lists["dense"] = backend.dense_candidates(encoder.encode([query])[0], access, depth)
    if keyword is not None:
        lists = {"bm25": keyword.result(), **lists}
    fused = reciprocal_rank_fusion(lists)[:k]
    if deadline is not None and time.monotonic() > deadline:  # the caller has given up: read nothing more
        raise SearchTimeout("search ran past its deadline")
    chunks = backend.load_chunks([chunk_id for chunk_id, _ in fused], access)
    ranks = {
        name: {c.chunk_id: (rank, c.score) for rank, c in enumerate(candidates, start=1)}
        for name, candidates in lists.items()
    }
    hits: list[SearchHit] = []
    for chunk_id, score in fused:
        chunk = chunks.get(chunk_id)
        if chunk is None:  # deleted meanwhile, or refused by the re-check
            continue
        bm25 = ranks.get("bm25", {}).get(chunk_id)
        dense = ranks.get("dense", {}).get(chunk_id)
        hits.append(
            SearchHit(
                doc_id=chunk.doc_id, chunk_id=chunk_id, title=chunk.title, text=chunk.text, score=score,
                source=chunk.source, page=chunk.page, sheet=chunk.sheet, document_date=chunk.document_date,
                heading_path=None if chunk.units is None else chunk.units.heading_path,
                lead=chunk.units.lead if chunk.units else "", units=chunk.units.units if chunk.units else None,
                bm25_rank=bm25[0] if bm25 else None, bm25_score=bm25[1] if bm25 else None,
                dense_rank=dense[0] if dense else None, dense_score=dense[1] if dense else None,
            )
        )
    return hits


class EntitledSearcher:
    """Search bound to one access filter at construction; callers choose the query, never the filter."""

    def __init__(self, backend: IndexBackend, encoder: Encoder, access: AccessFilter) -> None:
        if not isinstance(access, AccessFilter):
            raise TypeError("EntitledSearcher needs an AccessFilter from the entitlement resolver")
        if backend.encoder_name not in (None, encoder.name):
            raise IndexStoreError(
                f"index was built with encoder {backend.encoder_name!r} but {encoder.name!r} is configured "
                "(set BOUNDLOOP_EMBEDDINGS to match, or re-ingest into a new index)"
            )
        self._backend = backend
        self._encoder = encoder
        self._access = access

    def readable(self, chunk_ids: list[str]) -> set[str]:
        """Which of these chunks the bound principal may read now (deleted or re-labelled ones are not)."""
        return set(self._backend.load_chunks(sorted(set(chunk_ids)), self._access)) if chunk_ids else set()

    def search(
        self, query: str, k: int = 10, mode: SearchMode = "hybrid", timeout: float | None = None
    ) -> list[SearchHit]:
        """Permitted hits only. With `timeout`, a search still running then raises `SearchTimeout`.

        The search's own work stops at that deadline too, so it does not hold the index for the searches after it.
        """
        if timeout is None:
            return hybrid_search(self._backend, self._encoder, query, self._access, k, mode)
        if timeout <= 0:
            raise SearchTimeout("no time left for a search")
        deadline = time.monotonic() + timeout
        future = _POOL.submit(hybrid_search, self._backend, self._encoder, query, self._access, k, mode, deadline)
        try:
            return future.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise SearchTimeout(f"search did not finish within {timeout:.2f} s") from None
