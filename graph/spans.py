"""Every transition is a span: the `traced` wrapper times a node and records its decision in the state."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.state import LoopState

NodeFn = Callable[[LoopState, RunContext], "Outcome"]


@dataclass
class Outcome:
    """A node's partial state update, plus the decision and reason its span records."""

    update: dict[str, Any] = field(default_factory=dict)
    decision: str = ""
    reason: str = ""


def traced(name: str, fn: NodeFn) -> Callable[[LoopState, Runtime[RunContext]], dict[str, Any]]:
    """Wrap `fn(state, context) -> Outcome` as a LangGraph node that appends its span to `spans`."""

    def node(state: LoopState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        context = runtime.context
        wall, started = time.time(), context.clock()
        outcome = fn(state, context)
        update = dict(outcome.update)
        usage = context.usage(
            dict(state),
            hops=update.get("hops", 0),
            tokens=update.get("tokens", 0),
            retrieval_calls=update.get("retrieval_calls", 0),
        )
        update["spans"] = [
            {
                "node": name,
                "start": wall,
                "duration_ms": round((context.clock() - started) * 1000, 3),
                "usage": usage.as_dict(),
                "decision": outcome.decision,
                "reason": outcome.reason,
            }
        ]
        return update

    node.__name__ = name
    node.__doc__ = fn.__doc__
    return node
