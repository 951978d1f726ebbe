"""Understand: question class, entities and the kind of answer wanted."""

from __future__ import annotations

from graph.context import RunContext
from graph.reasoner import BudgetExhausted
from graph.spans import Outcome
from graph.state import LoopState
from nodes.budget import call_budget


def understand(state: LoopState, context: RunContext) -> Outcome:
    """Classifies the question; an out-of-scope question goes straight to respond without any search."""
    try:
        result = context.reasoner.understand(state["question"], call_budget(state, context))
    except BudgetExhausted as stop:
        return Outcome({"stop_reason": stop.reason, "next_step": "synthesise"}, "stop", str(stop))
    understanding = result.value
    next_step = "respond" if understanding.query_class == "out_of_scope" else "plan"
    return Outcome(
        {"understanding": understanding, "query_class": understanding.query_class, "tokens": result.tokens,
         "next_step": next_step},
        decision=f"{understanding.query_class}; entities {understanding.entities}",
        reason=result.note or f"answer type {understanding.answer_type}",
    )
