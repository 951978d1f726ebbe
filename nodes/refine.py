"""Refine or stop: a targeted search for the named gap, or enough."""

from __future__ import annotations

from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate


def refine(state: LoopState, context: RunContext) -> StepUpdate:
    """Asks for one more hop aimed at the gap, or moves on to synthesis; the governor may still refuse the hop."""
    result = context.reasoner.refine(
        question_of(state), state["understanding"], state.get("subqueries", []), state.get("evidence", []),
        state["assessment"], context.usage().hops,
    )
    decision = result.value
    if decision.action == "retrieve" and decision.subqueries:
        return StepUpdate(
            {"subqueries": decision.subqueries, "next_step": "retrieve"},
            decision="retrieve: " + "; ".join(f"{q.id} [{q.mode}] {q.shown()}" for q in decision.subqueries),
            reason=decision.reason,
            spent=Usage(tokens=result.tokens),
        )
    return StepUpdate({"next_step": "synthesise"}, decision="stop", reason=decision.reason,
                      spent=Usage(tokens=result.tokens))
