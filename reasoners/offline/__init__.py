"""The offline, deterministic reasoner: no API key, no network, the default and the safety net."""

from __future__ import annotations

from domain.models import (
    Assessment,
    Draft,
    Evidence,
    Plan,
    Refinement,
    SubQuery,
    Understanding,
    Verdict,
)
from graph.reasoner import StepResult
from policies.budget import CallBudget, estimate_tokens
from reasoners.offline import assess, classify, extractive, planning


class OfflineReasoner:
    """Heuristic decisions, deterministic and fast.

    Tokens are estimates of the text each step reads and writes (no model is called), so budgets and reports
    compare like for like with the LLM reasoner.
    """

    name = "offline"
    prompt_version = "offline-v1"

    def understand(self, question: str, budget: CallBudget) -> StepResult[Understanding]:
        return StepResult(classify.classify(question))

    def plan(self, question: str, understanding: Understanding, budget: CallBudget) -> StepResult[Plan]:
        return StepResult(planning.plan(question, understanding))

    def evaluate(self, question: str, understanding: Understanding, subqueries: list[SubQuery],
                 evidence: list[Evidence]) -> StepResult[Assessment]:
        return StepResult(assess.evaluate(question, understanding, subqueries, evidence))

    def refine(self, question: str, understanding: Understanding, subqueries: list[SubQuery],
               evidence: list[Evidence], assessment: Assessment, hop: int) -> StepResult[Refinement]:
        return StepResult(planning.refine(question, subqueries, assessment, hop))

    def synthesise(self, question: str, understanding: Understanding, evidence: list[Evidence],
                   assessment: Assessment | None, budget: CallBudget) -> StepResult[Draft]:
        draft = extractive.synthesise(question, understanding, evidence, assessment)
        read = estimate_tokens(question, *(e.text for e in evidence[: extractive.MAX_EVIDENCE]))
        return StepResult(draft, tokens=read + estimate_tokens(*(c.text for c in draft.claims)))

    def judge(self, question: str, verdicts: list[Verdict], evidence: list[Evidence],
              budget: CallBudget) -> StepResult[list[Verdict]]:
        """The offline grounding judgement is the verification policy itself; nothing to add."""
        return StepResult(verdicts)
