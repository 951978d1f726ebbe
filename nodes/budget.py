"""What a step may spend on a model call, from the run context and the state's counters."""

from __future__ import annotations

from graph.context import RunContext
from graph.reasoner import CallBudget
from graph.state import LoopState
from policies.budget import remaining_seconds


def call_budget(state: LoopState, context: RunContext) -> CallBudget:
    usage = context.usage(dict(state))
    return CallBudget(seconds=remaining_seconds(usage, context.limits),
                      tokens=max(0, context.limits.max_tokens - usage.tokens))
