"""The governor's conditional edge: a pure function of the state."""

from __future__ import annotations

from typing import Literal

from graph.state import LoopState

Route = Literal["understand", "plan", "retrieve", "evaluate", "refine", "synthesise", "verify", "respond", "__end__"]
WORKING_STEPS = ("understand", "plan", "retrieve", "evaluate", "refine")


def route_after_governor(state: LoopState) -> Route:
    """Go where the last node asked, unless a limit was reached: then take the closing path instead."""
    step = state.get("next_step", "understand")
    if step == "end":
        return "__end__"
    if state.get("stop_reason") and step in WORKING_STEPS:
        return "synthesise"
    return step
