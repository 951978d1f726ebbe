"""Every transition is a span: the `traced` wrapper times a node, books what it spent and records its decision.

It is also the one place that writes the run's `stop_reason`: a node says which limit stopped it (`StepUpdate.stopped`),
and a step cut short by the deadline or by a model call the budget refused becomes a stop here. A step that does not
stop at its deadline by itself is stopped from outside shortly after it (`policies/step_watchdog`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from langgraph.runtime import Runtime

from boundloop.domain.steps import CLOSING_STEP, STEPS
from boundloop.domain.trace import Span
from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState
from boundloop.graph.step_update import StepUpdate
from boundloop.policies.budget import BudgetExhausted
from boundloop.policies.deadline import DeadlineReached, step_deadline
from boundloop.policies.step_watchdog import StepOverran, watched

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
                with watched(deadline) if name not in STEPS or STEPS[name].stoppable else nullcontext():
                    step = fn(state, context)
            except (DeadlineReached, StepOverran):
                step = _cut_short(name)
            except BudgetExhausted as stop:
                step = _call_refused(name, stop)
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


def _call_refused(name: str, stop: BudgetExhausted) -> StepUpdate:
    """A step whose model call would pass a limit, so it was not sent: it changes nothing, and the run closes.

    Understand with 20 tokens left: 'stop', 'model call not sent: tokens limit', next the closing path. What a failed
    call spent first (`stop.tokens`) is booked. A closing step that raised goes on to the step after it.
    """
    rule = STEPS[name] if name in STEPS else None
    following = rule.next[0] if rule is not None and rule.closing else CLOSING_STEP
    return StepUpdate({"next_step": following}, decision="stop", reason=str(stop), spent=Usage(tokens=stop.tokens),
                      stopped=stop.reason)
