"""The budget governor: the guard every transition passes through."""

from __future__ import annotations

from graph.context import RunContext
from graph.spans import Outcome
from graph.state import LoopState
from policies.budget import check_before_step


def governor(state: LoopState, context: RunContext) -> Outcome:
    """Decides whether the step the last node asked for may run, or whether the run must close now.

    Once a limit is reached it records the reason; the router then sends the run down the closing path
    (synthesise the best grounded answer so far, verify, respond), marked incomplete.
    """
    step = state.get("next_step", "understand")
    if step == "end":
        return Outcome(decision="end", reason="answer delivered")
    if state.get("stop_reason"):
        return Outcome(decision=f"closing: {step}", reason=f"{state['stop_reason']} limit reached earlier")
    reason = check_before_step(step, context.usage(dict(state)), context.limits)
    if reason is None:
        return Outcome(decision=f"go: {step}", reason="within budget")
    return Outcome(
        update={"stop_reason": reason},
        decision=f"stop before {step}",
        reason=f"{reason} limit reached; closing with the best grounded answer so far",
    )
