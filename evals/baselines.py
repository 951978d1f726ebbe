"""The baselines the loop is measured against, as reasoners on the same graph, index and synthesiser.

- `OneHopReasoner`: single-shot hybrid retrieval with the whole question, then synthesis (one-hop RAG).
- `UntargetedReasoner`: the loop with untargeted refinement. It plans like the loop and refines whenever the
  loop would (the evaluation names a gap), but each extra hop re-retrieves the whole question with a larger k
  instead of searching for the gap. It stops by itself once the hop limit is spent, so it never hits that limit.
"""

from __future__ import annotations

from boundloop.domain.models import Assessment, Evidence, Plan, Refinement, SubQuery, Understanding
from boundloop.graph.reasoner import StepResult
from boundloop.policies.budget import CallBudget
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.reasoners.offline.planning import FIRST_HOP_K

ONE_HOP_K = 10
"""Passages the one-hop baseline retrieves: a common RAG top-k, near the loop's typical evidence size."""

MAX_K = 20
"""The largest k a sub-query may ask for."""


def whole_question(question: str, query_id: str, k: int, purpose: str) -> SubQuery:
    return SubQuery(id=query_id, text=question, mode="hybrid", purpose=purpose, k=min(k, MAX_K))


class OneHopReasoner(OfflineReasoner):
    """Plans one search for the whole question and never refines."""

    name = "offline-one-hop"

    def __init__(self, k: int = ONE_HOP_K) -> None:
        super().__init__()
        self.k = k

    def plan(self, question: str, understanding: Understanding, budget: CallBudget) -> StepResult[Plan]:
        return StepResult(Plan(subqueries=[whole_question(question, "q0", self.k, "the whole question")]))

    def refine(self, question: str, understanding: Understanding, subqueries: list[SubQuery],
               evidence: list[Evidence], assessment: Assessment, hop: int) -> StepResult[Refinement]:
        return StepResult(Refinement(action="stop", reason="one-hop baseline: a single retrieval"))


class UntargetedReasoner(OfflineReasoner):
    """Refines when the loop would, but re-retrieves the whole question with k growing by `FIRST_HOP_K` a hop."""

    name = "offline-untargeted"

    def __init__(self, max_hops: int) -> None:
        super().__init__()
        self.max_hops = max_hops

    def refine(self, question: str, understanding: Understanding, subqueries: list[SubQuery],
               evidence: list[Evidence], assessment: Assessment, hop: int) -> StepResult[Refinement]:
        if assessment.gap is None:
            return StepResult(Refinement(action="stop", reason="the evaluation names no gap"))
        if hop >= self.max_hops:
            return StepResult(Refinement(action="stop", reason=f"untargeted baseline: {hop} hops spent"))
        query = whole_question(question, f"r{hop}", FIRST_HOP_K * (hop + 1), "untargeted: the whole question")
        return StepResult(Refinement(action="retrieve", subqueries=[query], reason="re-retrieve the whole question"))
