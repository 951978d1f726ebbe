"""The governor's conditional edge: a pure function of the state, over the table of steps."""

from __future__ import annotations

from typing import Literal

from boundloop.domain.steps import CLOSING_STEP, FIRST_STEP, STEPS, Step
from boundloop.graph.state import LoopState

Route = Step | Literal["__end__"]
ROUTES: list[str] = [*STEPS, "__end__"]


def route_after_governor(state: LoopState) -> Route:
    """Go where the last node asked, unless a limit was reached: then a working step gives way to the closing path."""
    step = state.get("next_step") or FIRST_STEP
    if step == "end":
        return "__end__"
    if state.get("stop_reason") and not STEPS[step].closing:
        return CLOSING_STEP
    return step
