"""Plan: the typed sub-queries of the first hop, each with its retrieval mode."""

from __future__ import annotations

from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate


def plan(state: LoopState, context: RunContext) -> StepUpdate:
    """Chooses what to search for first; the search itself is the retrieve step's.

    A model call the budget refuses (`BudgetExhausted`) closes the run (`graph.spans`).
    """
    result = context.reasoner.plan(question_of(state), state["understanding"], context.call_budget())
    subqueries = result.value.subqueries
    return StepUpdate(
        {"subqueries": subqueries, "next_step": "retrieve"},
        decision="; ".join(f"{q.id} [{q.mode}] {q.shown()}" for q in subqueries),
        reason=result.note or f"{len(subqueries)} sub-queries",
        spent=Usage(tokens=result.tokens),
    )
