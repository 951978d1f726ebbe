"""The hard deadline inside a step: long work checks it as it goes and stops at the run's limit.

The governor looks between steps; this reaches into them. The node wrapper (`graph/spans.traced`) opens a step's
deadline, and the reasoning code checks it per unit of work (per passage, per rule, per candidate) with `within`
or `check_deadline`: once the deadline has passed, `within` stops yielding and `check_deadline` raises, so a step
ends with what it has read so far. Outside a step (a unit test, a benchmark), there is no deadline.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

CLOSING_GRACE_SECONDS = 0.15
"""What the closing steps (synthesise, verify, respond) may run past the limit to turn the evidence read so far
into the best grounded answer; the run still ends within its limit + 0.25 s."""


@dataclass
class Deadline:
    """A point on `clock`'s scale; `reached` records that some check found it passed.

    `cancel`, when set, ends the step as its deadline would (the run's reader left: no more work is paid for
    nobody); a model call in flight waits on it too, so even a call that hangs ends within a fraction of a second.
    """

    at: float
    clock: Callable[[], float]
    reached: bool = field(default=False)
    cancel: threading.Event | None = None

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def passed(self) -> bool:
        if not self.reached and (self.clock() >= self.at or self.cancelled()):
            self.reached = True
        return self.reached


class DeadlineReached(Exception):
    """The step's deadline passed in the middle of its work."""


_CURRENT: ContextVar[Deadline | None] = ContextVar("boundloop_step_deadline", default=None)


@contextmanager
def step_deadline(deadline: Deadline) -> Iterator[Deadline]:
    """Make `deadline` the one the work of this step (in this thread or context) checks."""
    token = _CURRENT.set(deadline)
    try:
        yield deadline
    finally:
        _CURRENT.reset(token)


def deadline_passed() -> bool:
    """Whether the current step's deadline has passed (False outside a step)."""
    deadline = _CURRENT.get()
    return deadline is not None and deadline.passed()


def cancel_requested() -> bool:
    """Whether the current step's run was cancelled (False outside a step)."""
    deadline = _CURRENT.get()
    return deadline is not None and deadline.cancelled()


def check_deadline() -> None:
    """Raise `DeadlineReached` once the current step's deadline has passed."""
    if deadline_passed():
        raise DeadlineReached


def within(items: Iterable[T]) -> Iterator[T]:
    """`items`, until the current step's deadline passes: a loop over them ends with what it has done."""
    deadline = _CURRENT.get()
    for item in items:
        if deadline is not None and deadline.passed():
            return
        yield item
