"""Evaluate: coverage per sub-query, conflicts between evidence, and the gap named. Cheap by design."""

from __future__ import annotations

from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate


def evaluate(state: LoopState, context: RunContext) -> StepUpdate:
    """Judges the evidence so far; names the most important gap for refine to target."""
    result = context.reasoner.evaluate(
        question_of(state), state["understanding"], state.get("subqueries", []), state.get("evidence", [])
    )
    assessment = result.value
    covered = ", ".join(f"{c.subquery_id}={c.score:.2f}" for c in assessment.coverage)
    gap = assessment.gap.description if assessment.gap else "none"
    return StepUpdate(
        {"assessment": assessment, "next_step": "refine"},
        decision=f"coverage {covered}; question {assessment.question_coverage:.2f}; "
        f"{len(assessment.conflicts)} conflicts",
        reason=result.note or f"gap: {gap}",
        spent=Usage(tokens=result.tokens),
    )
