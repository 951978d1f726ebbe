"""Which outcome a run ends with: an answer, a fallback list of permitted results, or an abstention."""

from __future__ import annotations

from typing import Literal

from domain.models import Assessment, Claim, Evidence

MIN_COVERAGE_TO_ANSWER = 0.5
MIN_COVERAGE_FOR_FALLBACK = 0.34

ABSTAIN_OUT_OF_SCOPE = "This question is outside what the company documents can answer."
ABSTAIN_NOT_COVERED = "I can't answer that from the documents you can see."
ABSTAIN_SEARCH_DOWN = "Search is unavailable right now, so I can't answer; please try again later."
ABSTAIN_NO_TIME = "The run's budget ran out before any grounded answer was found."


def choose_outcome(
    query_class: str | None, supported: list[Claim], evidence: list[Evidence], assessment: Assessment | None,
    retrieval_error: str | None, budget_stopped: bool,
) -> tuple[Literal["answered", "abstained", "fallback"], str | None]:
    """Answer, fall back or abstain.

    Answer when grounded claims survive and the evidence covers the question; otherwise fall back to a ranked list
    when relevant evidence exists; otherwise abstain, saying why without naming any document.
    """
    coverage = assessment.question_coverage if assessment else 0.0
    if query_class == "out_of_scope":
        return "abstained", ABSTAIN_OUT_OF_SCOPE
    if supported and coverage >= MIN_COVERAGE_TO_ANSWER:
        return "answered", None
    if evidence and coverage >= MIN_COVERAGE_FOR_FALLBACK:
        return "fallback", "No grounded answer; these are the closest documents you can see."
    if retrieval_error and not evidence:
        return "abstained", ABSTAIN_SEARCH_DOWN
    if budget_stopped and not evidence:
        return "abstained", ABSTAIN_NO_TIME
    return "abstained", ABSTAIN_NOT_COVERED
