"""Refine or stop: a targeted search for the named gap, or enough."""

from __future__ import annotations

from graph.context import RunContext
from graph.spans import Outcome
from graph.state import LoopState


def refine(state: LoopState, context: RunContext) -> Outcome:
    """Asks for one more hop aimed at the gap, or moves on to synthesis; the governor may still refuse the hop."""
    result = context.reasoner.refine(
        state["question"], state["understanding"], state.get("subqueries", []), state.get("evidence", []),
        state["assessment"], state.get("hops", 0),
    )
    decision = result.value
    if decision.action == "retrieve" and decision.subqueries:
        return Outcome(
            {"subqueries": decision.subqueries, "tokens": result.tokens, "next_step": "retrieve"},
            decision="retrieve: " + "; ".join(f"{q.id} [{q.mode}] {q.shown()}" for q in decision.subqueries),
            reason=decision.reason,
        )
    return Outcome({"tokens": result.tokens, "next_step": "synthesise"}, decision="stop", reason=decision.reason)
