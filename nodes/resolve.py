"""Resolve: a follow-up made to stand alone from the conversation's earlier turns, before the loop works on it."""

from __future__ import annotations

from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.history import usable_turns
from boundloop.graph.state import LoopState
from boundloop.graph.step_update import StepUpdate


def resolve(state: LoopState, context: RunContext) -> StepUpdate:
    """Rewrites "And in Toronto?" as the question it stands for, from the earlier turns its user may still read.

    The earlier turns are the run store's (`context.history`) or, on the LangGraph server, the thread's (`turns`).
    A question that needs none of them is kept as asked. Only the question changes: what may be searched does not.
    A model call the budget refuses (`BudgetExhausted`) closes the run on the question as asked (`graph.spans`).
    """
    question = state["question"]
    earlier = context.history if context.history is not None else state.get("turns", [])
    turns, withheld = usable_turns(earlier, context.searcher)
    left_out = f"; {withheld} earlier turns left out (they showed documents you can no longer read)" if withheld else ""
    if not turns:
        return StepUpdate({"standalone_question": question, "next_step": "understand"}, "stands alone",
                          ("no earlier turns" if not withheld else "no earlier turns usable") + left_out)
    result = context.reasoner.resolve(question, turns, context.call_budget())
    resolution = result.value
    decision = f"follow-up: {resolution.standalone_question!r}" if resolution.follow_up else "stands alone"
    return StepUpdate(
        {"standalone_question": resolution.standalone_question, "context_chunks": resolution.context_chunks(turns),
         "next_step": "understand"},
        decision=decision,
        reason=(result.note or resolution.how or f"{len(turns)} earlier turns") + left_out,
        spent=Usage(tokens=result.tokens),
        stopped=result.stopped,
    )
