"""Which outcome a run ends with: an answer, a fallback list of relevant permitted results, or an abstention.

- Answer when a verified claim answers the question (the synthesiser drafts claims only for evidence that answers
  it; the verifier keeps only grounded ones), also when a limit closed the run part-way.
- Fall back to a list only when some permitted results are relevant: they cover at least `RELEVANCE_FLOOR` of the
  question's words (names count double). Unrelated documents are never offered.
- Otherwise abstain, saying why without naming any document.
"""

from __future__ import annotations

from typing import Literal

from boundloop.domain.models import Claim, Conflict, Evidence
from boundloop.domain.text import entities, stems

RELEVANCE_FLOOR = 0.5
NAME_WEIGHT = 2.0

ABSTAIN_OUT_OF_SCOPE = "This question is outside what the company documents can answer."
ABSTAIN_NOT_COVERED = "I can't answer that from the documents you can see."
ABSTAIN_SEARCH_DOWN = "Search is unavailable right now, so I can't answer; please try again later."
ABSTAIN_NO_TIME = "The run's budget ran out before any grounded answer was found."
FALLBACK = "No grounded answer; these are the closest documents you can see."


def relevance(question: str, evidence: Evidence) -> float:
    """Share of the question's word stems in a result's title and text, the names it mentions counting double."""
    asked = stems(question)
    if not asked:
        return 0.0
    named = set().union(*(stems(e) for e in entities(question))) if entities(question) else set()
    weight = {k: NAME_WEIGHT if k in named else 1.0 for k in asked}
    present = stems(f"{evidence.title} {evidence.text}")
    return sum(w for k, w in weight.items() if k in present) / sum(weight.values())


def relevant_results(question: str, evidence: list[Evidence]) -> list[Evidence]:
    """The results worth offering in a fallback list, best first."""
    return sorted((e for e in evidence if relevance(question, e) >= RELEVANCE_FLOOR), key=lambda e: -e.score)


def choose_outcome(
    query_class: str | None, supported: list[Claim], evidence: list[Evidence], relevant: list[Evidence],
    retrieval_error: str | None, budget_stopped: bool,
) -> tuple[Literal["answered", "abstained", "fallback"], str | None]:
    """Answer, fall back or abstain, and why (never naming a document)."""
    if query_class == "out_of_scope":
        return "abstained", ABSTAIN_OUT_OF_SCOPE
    if supported:
        return "answered", None
    if relevant:
        return "fallback", FALLBACK
    if retrieval_error and not evidence:
        return "abstained", ABSTAIN_SEARCH_DOWN
    if budget_stopped and not evidence:
        return "abstained", ABSTAIN_NO_TIME
    return "abstained", ABSTAIN_NOT_COVERED


def shown_conflicts(conflicts: list[Conflict], shown: set[str]) -> list[Conflict]:
    """The conflicts about what the result shows: each names a chunk the answer cites or the fallback lists.

    A disagreement elsewhere in the evidence (two versions of a policy the answer does not use) is not the reader's
    concern, and an abstention names no document at all. The same disagreement found twice is shown once: settled
    (the reader says which value is in force) before unsettled, which is left out for the chunks a settled one names.
    """
    kept: dict[tuple[tuple[str, ...], tuple[str, ...]], Conflict] = {}
    settled: set[tuple[str, ...]] = set()
    for conflict in sorted(conflicts, key=lambda c: c.in_force is None):  # stable: settled first, else as given
        chunks = tuple(sorted(conflict.chunk_ids))
        if not set(chunks) & shown or (conflict.in_force is None and chunks in settled):
            continue
        if conflict.in_force is not None:
            settled.add(chunks)
        kept.setdefault((tuple(sorted(conflict.values)), chunks), conflict)
    return list(kept.values())
