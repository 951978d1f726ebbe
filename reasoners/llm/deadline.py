"""A hard wall-clock deadline for model calls: each runs on a private event loop and is cancelled when time is up.

HTTP client timeouts bound each phase (connect, each read) but not the whole call: a server that trickles its reply
a few bytes at a time never trips a read timeout. Cancelling the call's task at the deadline does bound it, and
closes the connection. One daemon thread runs the loop for the whole process, so the HTTP connection pool lives on
one loop, concurrent runs share it, and a caller needs no event loop of its own (nor must it lack one).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from boundloop.policies.deadline import cancel_requested

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


class DeadlineExceeded(TimeoutError):
    """The call did not finish within its seconds; it was cancelled."""


def _call_loop() -> asyncio.AbstractEventLoop:
    """The running private loop; a new one if there is none yet, or if its thread is gone (e.g. after a fork)."""
    global _loop, _thread
    with _lock:
        if _loop is None or _thread is None or not _thread.is_alive():
            _loop = asyncio.new_event_loop()
            _thread = threading.Thread(target=_loop.run_forever, name="boundloop-llm-calls", daemon=True)
            _thread.start()
        return _loop


CANCEL_POLL_SECONDS = 0.05
"""How often a call in flight looks whether its run was cancelled (its reader left)."""


def run_within(seconds: float, call: Coroutine[Any, Any, T]) -> T:
    """The call's result, or DeadlineExceeded once `seconds` have passed or the run was cancelled.

    Either way the call is cancelled too. Exceptions the call raises come back unchanged.
    """
    future = asyncio.run_coroutine_threadsafe(call, _call_loop())
    ends = time.monotonic() + seconds
    while True:
        try:
            return future.result(timeout=max(0.0, min(CANCEL_POLL_SECONDS, ends - time.monotonic())))
        except FutureTimeout:
            if future.done() and not future.cancelled() and future.exception() is None:
                return future.result()  # finished in the instant between the timeout and this check
            cancelled = cancel_requested()
            if cancelled or time.monotonic() >= ends:
                future.cancel()
                raise DeadlineExceeded("the run was cancelled" if cancelled else
                                       f"no reply within {seconds:.2f} s") from None
