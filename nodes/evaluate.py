"""Evaluate: coverage per sub-query, conflicts between evidence, and the gap named. Cheap by design."""

from __future__ import annotations

from graph.context import RunContext
from graph.spans import Outcome
from graph.state import LoopState


def evaluate(state: LoopState, context: RunContext) -> Outcome:
    """Judges the evidence so far; names the most important gap for refine to target."""
    result = context.reasoner.evaluate(
        state["question"], state["understanding"], state.get("subqueries", []), state.get("evidence", [])
    )
    assessment = result.value
    covered = ", ".join(f"{c.subquery_id}={c.score:.2f}" for c in assessment.coverage)
    gap = assessment.gap.description if assessment.gap else "none"
    return Outcome(
        {"assessment": assessment, "tokens": result.tokens, "next_step": "refine"},
        decision=f"coverage {covered}; question {assessment.question_coverage:.2f}; "
        f"{len(assessment.conflicts)} conflicts",
        reason=result.note or f"gap: {gap}",
    )
