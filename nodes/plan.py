"""Plan: the typed sub-queries of the first hop, each with its retrieval mode."""

from __future__ import annotations

from graph.context import RunContext
from graph.reasoner import BudgetExhausted
from graph.spans import Outcome
from graph.state import LoopState
from nodes.budget import call_budget


def plan(state: LoopState, context: RunContext) -> Outcome:
    """Chooses what to search for first; the search itself is the retrieve step's."""
    try:
        result = context.reasoner.plan(state["question"], state["understanding"], call_budget(state, context))
    except BudgetExhausted as stop:
        return Outcome({"stop_reason": stop.reason, "next_step": "synthesise"}, "stop", str(stop))
    subqueries = result.value.subqueries
    return Outcome(
        {"subqueries": subqueries, "tokens": result.tokens, "next_step": "retrieve"},
        decision="; ".join(f"{q.id} [{q.mode}] {q.shown()}" for q in subqueries),
        reason=result.note or f"{len(subqueries)} sub-queries",
    )
