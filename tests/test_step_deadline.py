"""The hard deadline inside a step: long work stops at the run's limit, and the run closes with what it read."""

from __future__ import annotations

import pytest

from boundloop.graph.ledger import Ledger
from boundloop.policies.deadline import (
    CLOSING_GRACE_SECONDS,
    Deadline,
    DeadlineReached,
    check_deadline,
    deadline_passed,
    step_deadline,
    within,
)
from boundloop.reasoners.offline import OfflineReasoner
from tests.loop_fixtures import Clock, make_runner

QUESTION = "Who is the Head of Finance?"


def test_within_stops_yielding_once_the_deadline_passes():
    clock = Clock(now=0.0)
    seen = []
    with step_deadline(Deadline(at=5.0, clock=clock)) as deadline:
        for i in within(range(100)):
            seen.append(i)
            clock.now += 1.0
    assert seen == [0, 1, 2, 3, 4] and deadline.reached


def test_check_deadline_raises_only_inside_a_step_whose_deadline_passed():
    check_deadline()  # outside a step: no deadline
    assert list(within(range(3))) == [0, 1, 2]
    clock = Clock(now=0.0)
    with step_deadline(Deadline(at=1.0, clock=clock)):
        check_deadline()
        clock.now = 1.0
        assert deadline_passed()
        with pytest.raises(DeadlineReached):
            check_deadline()
    assert not deadline_passed()  # the step's deadline is gone with the step


class EndlessEvaluate(OfflineReasoner):
    """Evaluate works through an unbounded stream of units, each moving the clock by 10 ms."""

    def __init__(self, clock: Clock, stop_by: str) -> None:
        super().__init__()
        self.clock, self.stop_by, self.units = clock, stop_by, 0

    def evaluate(self, *args, **kwargs):
        for _ in within(iter(int, 1)) if self.stop_by == "within" else iter(int, 1):
            self.units += 1
            self.clock.now += 0.01
            if self.stop_by == "check":
                check_deadline()
        return super().evaluate(*args, **kwargs)


def _run(index, encoder, resolver, reasoner, clock, tmp_path):
    runner = make_runner(index, encoder, resolver, tmp_path, reasoner=reasoner, max_seconds=2.0)
    context = runner.context_for("bob")
    runner.context_for = lambda user, history=None, cancel=None: type(context)(  # type: ignore[method-assign]
        principal=context.principal, searcher=context.searcher, reasoner=context.reasoner,
        limits=context.limits, ledger=Ledger(clock),
    )
    result = runner.ask(QUESTION, "bob")
    return result, runner.trace(result.run_id)


@pytest.mark.parametrize("stop_by", ["within", "check"])
def test_a_step_that_would_run_forever_ends_at_the_limit_and_the_run_closes(index, encoder, resolver, stop_by,
                                                                             tmp_path):
    clock = Clock(now=0.0)
    reasoner = EndlessEvaluate(clock, stop_by)
    result, trace = _run(index, encoder, resolver, reasoner, clock, tmp_path)
    assert result.stop_reason == "time" and result.complete is False
    assert reasoner.units <= 201  # 2 s of 10 ms units, then the step let go
    assert clock.now <= 2.0 + CLOSING_GRACE_SECONDS + 0.01
    assert result.status in ("answered", "fallback", "abstained")
    evaluate_span = next(s for s in trace if s.node == "evaluate")
    if stop_by == "check":
        assert evaluate_span.decision == "cut short" and "inside the step" in evaluate_span.reason


def test_the_closing_steps_run_after_the_deadline_and_the_run_says_time(index, encoder, resolver, tmp_path):
    clock = Clock(now=0.0)

    class SlowUnits(OfflineReasoner):
        def evaluate(self, *args, **kwargs):
            clock.now = 2.0  # the deadline is used up inside evaluate
            return super().evaluate(*args, **kwargs)

    result, trace = _run(index, encoder, resolver, SlowUnits(), clock, tmp_path)
    assert result.stop_reason == "time" and result.complete is False
    assert [s.node for s in trace if s.node in ("synthesise", "verify", "respond")] == \
        ["synthesise", "verify", "respond"]
