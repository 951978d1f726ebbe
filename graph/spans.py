"""Every transition is a span: the `traced` wrapper times a node, books what it spent and records its decision."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langgraph.runtime import Runtime

from boundloop.domain.steps import STEPS
from boundloop.domain.trace import Span
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState
from boundloop.graph.step_update import StepUpdate
from boundloop.policies.deadline import DeadlineReached, step_deadline

NodeFn = Callable[[LoopState, RunContext], StepUpdate]


def traced(name: str, fn: NodeFn,
           bound: RunContext | None = None) -> Callable[[LoopState, Runtime[RunContext]], dict[str, Any]]:
    """Wrap `fn(state, context) -> StepUpdate` as a LangGraph node that appends its span to `spans`.

    The context is the run's (`runtime.context`), or `bound` when the graph was compiled for one run.
    """

    def node(state: LoopState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        context = bound if bound is not None else runtime.context
        wall, started = time.time(), context.ledger.clock()
        with step_deadline(context.deadline(name in STEPS and STEPS[name].closing, started)) as deadline:
            try:
                step = fn(state, context)
            except DeadlineReached:
                step = _cut_short(name)
        if deadline.reached and not step.stopped:  # the step ended early with what it had: the run is incomplete
            step.stopped = "time"
        context.ledger.record(name, step.spent)
        span = Span(node=name, start=wall, duration_ms=round((context.ledger.clock() - started) * 1000, 3),
                    usage=context.usage(), decision=step.decision, reason=step.reason)
        values = {**step.values, "spans": [span]}
        if step.stopped and not state.get("stop_reason"):
            values["stop_reason"] = step.stopped
        return values

    node.__name__ = name
    node.__doc__ = fn.__doc__
    return node


def _cut_short(name: str) -> StepUpdate:
    """A working step stopped by the deadline in the middle of its work: it changes nothing, and the run closes."""
    following = STEPS[name].next[0] if name in STEPS else "synthesise"
    return StepUpdate({"next_step": following}, decision="cut short",
                      reason="time limit reached inside the step; closing with the best grounded answer so far",
                      stopped="time")
