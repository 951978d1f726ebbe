"""Evidence for the offline reader's tests: one chunk of one document, as a search returns it."""

from __future__ import annotations

from boundloop.domain.models import Evidence, Understanding
from boundloop.reasoners.offline.extractive import synthesise


def evidence(doc_id: str, title: str, text: str, hop: int = 1, score: float = 0.03) -> Evidence:
    """The first chunk of document `doc_id`, found by the first sub-query."""
    return Evidence(chunk_id=f"{doc_id}#0", doc_id=doc_id, title=title, text=text, score=score, hop=hop,
                    found_by=["q0"], rank=1)


def short_answer(question: str, *documents: Evidence, query_class: str = "lookup",
                 entities: tuple[str, ...] = ()) -> str | None:
    """The short answer the offline reader drafts from these documents (no answerability model)."""
    understanding = Understanding(query_class=query_class, entities=list(entities))
    return synthesise(question, understanding, list(documents), None).short_answer
