"""Understand: question class, entities and the kind of answer wanted."""

from __future__ import annotations

from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate


def understand(state: LoopState, context: RunContext) -> StepUpdate:
    """Classifies the question; an out-of-scope question goes straight to respond without any search.

    A model call the budget refuses (`BudgetExhausted`) closes the run (`graph.spans`).
    """
    result = context.reasoner.understand(question_of(state), context.call_budget())
    understanding = result.value
    next_step = "respond" if understanding.query_class == "out_of_scope" else "plan"
    return StepUpdate(
        {"understanding": understanding, "query_class": understanding.query_class, "next_step": next_step},
        decision=f"{understanding.query_class}; entities {understanding.entities}",
        reason=result.note or f"answer type {understanding.answer_type}",
        spent=Usage(tokens=result.tokens),
    )
