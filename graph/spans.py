"""Every transition is a span: the `traced` wrapper times a node, books what it spent and records its decision."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langgraph.runtime import Runtime

from boundloop.domain.trace import Span
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState
from boundloop.graph.step_update import StepUpdate

NodeFn = Callable[[LoopState, RunContext], StepUpdate]


def traced(name: str, fn: NodeFn,
           bound: RunContext | None = None) -> Callable[[LoopState, Runtime[RunContext]], dict[str, Any]]:
    """Wrap `fn(state, context) -> StepUpdate` as a LangGraph node that appends its span to `spans`.

    The context is the run's (`runtime.context`), or `bound` when the graph was compiled for one run.
    """

    def node(state: LoopState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        context = bound if bound is not None else runtime.context
        wall, started = time.time(), context.ledger.clock()
        step = fn(state, context)
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
