"""The budget governor: the guard every transition passes through."""

from __future__ import annotations

from boundloop.domain.steps import FIRST_STEP, allowed_after
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState
from boundloop.graph.step_update import StepUpdate
from boundloop.policies.budget import check_before_step, spent_limit
from boundloop.policies.errors import StepOrderError


def governor(state: LoopState, context: RunContext) -> StepUpdate:
    """Decides whether the step the last node asked for may run, or whether the run must close now.

    The step must be one the table of steps allows after the last step this run ran (the run's ledger says which,
    not the state). Once a limit is reached it records the reason; the router then sends the run down the closing
    path (synthesise the best grounded answer so far, verify, respond), marked incomplete.
    """
    step = state.get("next_step") or FIRST_STEP
    last = context.ledger.last_step
    if step not in allowed_after(last):
        raise StepOrderError(f"the loop cannot go to {step!r} after {last or 'the start of a run'!s}")
    if step == "end":
        return StepUpdate(decision="end", reason="answer delivered")
    if state.get("stop_reason"):
        return StepUpdate(decision=f"closing: {step}", reason=f"{state['stop_reason']} limit reached earlier")
    usage = context.usage()
    reason = check_before_step(step, usage, context.limits)
    if reason is None and (used_up := spent_limit(usage, context.limits)):  # a closing step: it runs, incomplete
        return StepUpdate(decision=f"go: {step}", reason=f"{used_up} limit reached; the run is incomplete",
                          stopped=used_up)
    if reason is None:
        return StepUpdate(decision=f"go: {step}", reason="within budget")
    return StepUpdate(decision=f"stop before {step}",
                      reason=f"{reason} limit reached; closing with the best grounded answer so far", stopped=reason)
