"""The passages a finished run's answer cites, for the run's owner: the text the run read, never anything else.

A passage is returned only if all three hold: the run's answer cites its chunk, the run's own evidence holds it (so
the text is the version the answer stands on), and the caller may read the chunk now (so a document since removed
or put out of the caller's reach is not shown again). Its Markdown as written comes with it only while the index
still holds the very text the run read: a passage is never shown in a version the answer did not stand on.
"""

from __future__ import annotations

from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import StoredChunk
from boundloop.retrieval.chunk_markdown import MAX_MARKDOWN_CHARS
from boundloop.service.errors import NotFound
from boundloop.service.models import Passage
from boundloop.service.state import ServiceState


def cited_passages(state: ServiceState, run_id: str, user: str) -> list[Passage]:
    """The cited passages of `user`'s finished run `run_id`; the caller has checked that `user` owns it."""
    result = state.store.result(run_id)
    if result is None:
        raise NotFound(f"run {run_id} has not finished")
    citations = result.citations
    if not citations:
        return []
    evidence = {e.chunk_id: e for e in state.runner.evidence(run_id)}
    access = AccessFilter.for_principal(state.resolver.resolve(user))
    readable = state.backend.load_chunks([c.chunk_id for c in citations], access)
    return [
        Passage(marker=c.marker, doc_id=c.doc_id, chunk_id=c.chunk_id, title=c.title, page=c.page, sheet=c.sheet,
                text=evidence[c.chunk_id].text, markdown=_as_written(readable[c.chunk_id], evidence[c.chunk_id].text))
        for c in citations if c.chunk_id in evidence and c.chunk_id in readable
    ]


def _as_written(stored: StoredChunk, read: str) -> str:
    """The stored chunk's Markdown if its text is still the text the run read (and within bounds), else ''."""
    return stored.markdown if stored.text == read and len(stored.markdown) <= MAX_MARKDOWN_CHARS else ""
