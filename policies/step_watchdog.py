"""The step deadline's backstop: a step still running shortly after its deadline is stopped from outside.

The deadline is checked cooperatively (`policies/deadline.within` and `check_deadline`), so a loop that forgot to
check could run past the run's limit; one did (a typo search over a 4,000-character word ran for 519 s). The watchdog
is one daemon thread for the whole process, holding the due times of the steps in flight; when a step is still
running `OVERRUN_SECONDS` after its deadline, it raises `StepOverran` inside the step's thread
(`PyThreadState_SetAsyncExc`), which the node wrapper turns into a step cut short by time.

What it cannot do: the exception arrives between Python bytecodes, so one long call into C (a regular expression,
an encoder batch) ends first. It watches only deadlines on the real clock (`time.monotonic`): a test's fake clock
never stops a step from outside.
"""

from __future__ import annotations

import ctypes
import heapq
import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from boundloop.policies.deadline import Deadline

OVERRUN_SECONDS = 0.1
"""How long past its deadline a step may run before it is stopped from outside."""


class StepOverran(BaseException):  # noqa: N818 - named for what happened, like KeyboardInterrupt
    """Raised inside a step still running after its deadline. A BaseException, so `except Exception` cannot keep it."""


class _Guard:
    """One step in flight: its thread, and whether it ended (disarmed) or was stopped (fired)."""

    def __init__(self, thread_id: int, deadline: Deadline) -> None:
        self.thread_id, self.deadline = thread_id, deadline
        self.lock = threading.Lock()
        self.disarmed = self.fired = False

    def fire(self) -> None:
        with self.lock:
            if self.disarmed:
                return
            self.fired = self.deadline.reached = True
            _set_async_exc(self.thread_id, StepOverran)

    def disarm(self) -> None:
        """The step ended: never fire after this, and take back an exception sent but not yet raised."""
        with self.lock:
            self.disarmed = True
            if self.fired:
                _set_async_exc(self.thread_id, None)


def _set_async_exc(thread_id: int, exc: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else None)


class _Watchdog:
    """One daemon thread that fires each guard still armed at its due time (on `time.monotonic`)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._due: list[tuple[float, int, _Guard]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def arm(self, due: float, guard: _Guard) -> None:
        with self._cond:
            heapq.heappush(self._due, (due, next(self._order), guard))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="boundloop-step-watchdog", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _run(self) -> None:
        with self._cond:
            while True:
                while self._due and self._due[0][2].disarmed:
                    heapq.heappop(self._due)
                if not self._due:
                    self._cond.wait()
                    continue
                due, _, guard = self._due[0]
                wait = due - time.monotonic()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                heapq.heappop(self._due)
                guard.fire()


_WATCHDOG = _Watchdog()


@contextmanager
def watched(deadline: Deadline) -> Iterator[None]:
    """Run the body in this thread under the watchdog: `StepOverran` is raised in it if it outlives `deadline`.

    Leaving the body disarms the guard, so no exception arrives after it; the caller catches `StepOverran` around
    this block, because the exception may surface while the block is being left.
    """
    if deadline.clock is not time.monotonic:
        yield
        return
    guard = _Guard(threading.get_ident(), deadline)
    _WATCHDOG.arm(time.monotonic() + max(0.0, deadline.at - deadline.clock()) + OVERRUN_SECONDS, guard)
    try:
        yield
    finally:
        guard.disarm()
