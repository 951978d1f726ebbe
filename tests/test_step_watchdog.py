"""The deadline's backstop: a step that never checks its deadline is stopped from outside, and the run closes."""

from __future__ import annotations

import time

import pytest

from boundloop.policies.deadline import Deadline
from boundloop.policies.step_watchdog import OVERRUN_SECONDS, StepOverran, watched
from boundloop.reasoners.offline import OfflineReasoner
from tests.loop_fixtures import Clock, make_runner

QUESTION = "Who is the Head of Finance?"
SAFETY_SECONDS = 30.0
"""A loop under test ends by itself after this long, so a broken watchdog fails the test instead of hanging it."""


class Busy:
    """A loop with no deadline check in it, which records whether something stopped it from outside."""

    def __init__(self) -> None:
        self.stopped_from_outside = False

    def run(self, swallow_errors: bool = False) -> None:
        ends = time.monotonic() + SAFETY_SECONDS
        try:
            while time.monotonic() < ends:
                try:
                    sum(range(200))
                except Exception:  # code that keeps going whatever an error: it must not keep the step alive
                    if not swallow_errors:
                        raise
        except BaseException:
            self.stopped_from_outside = True
            raise


class Unchecked(OfflineReasoner):
    """One step spins in a loop that never looks at the deadline (like the typo search that once ran for 519 s)."""

    def __init__(self, step: str, swallow_errors: bool) -> None:
        super().__init__()
        self.step, self.busy, self.swallow_errors = step, Busy(), swallow_errors

    def evaluate(self, *args, **kwargs):
        if self.step == "evaluate":
            self.busy.run(self.swallow_errors)
        return super().evaluate(*args, **kwargs)

    def synthesise(self, *args, **kwargs):
        if self.step == "synthesise":
            self.busy.run(self.swallow_errors)
        return super().synthesise(*args, **kwargs)


@pytest.mark.parametrize(("step", "swallow_errors"), [("evaluate", False), ("evaluate", True), ("synthesise", False)])
def test_a_step_that_never_checks_the_deadline_is_stopped_and_the_run_closes(index, encoder, resolver, tmp_path,
                                                                            step, swallow_errors):
    reasoner = Unchecked(step, swallow_errors)
    runner = make_runner(index, encoder, resolver, tmp_path, reasoner=reasoner, max_seconds=0.5)
    result = runner.ask(QUESTION, "bob")
    assert reasoner.busy.stopped_from_outside
    assert result.stop_reason == "time" and result.complete is False
    assert result.status in ("answered", "fallback", "abstained")
    trace = runner.trace(result.run_id)
    stopped = next(s for s in trace if s.node == step)
    assert stopped.decision == "cut short" and "inside the step" in stopped.reason
    assert [s.node for s in trace if s.node != "governor"][-1] == "respond"  # the outcome is still written
    if step == "synthesise":
        assert result.claims == []  # nothing unverified ships


def test_a_step_that_ends_in_time_gets_no_exception_later():
    deadline = Deadline(at=time.monotonic() + 0.05, clock=time.monotonic)
    with watched(deadline):
        pass
    time.sleep(0.05 + OVERRUN_SECONDS + 0.2)  # well past the due time: nothing may arrive now
    assert not deadline.reached


def test_an_exception_sent_as_the_step_ends_is_taken_back():
    deadline = Deadline(at=time.monotonic(), clock=time.monotonic)  # due at once
    with pytest.raises(StepOverran):
        with watched(deadline):
            Busy().run()
    sum(range(10_000))  # bytecodes after the block: no stray exception
    assert deadline.reached


def test_a_fake_clock_is_never_watched():
    clock = Clock(now=0.0)
    deadline = Deadline(at=-1.0, clock=clock)  # long passed on the fake clock
    with watched(deadline):
        time.sleep(OVERRUN_SECONDS + 0.2)
    assert not deadline.reached
