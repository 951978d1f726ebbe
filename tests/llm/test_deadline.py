"""The hard deadline around model calls: results and errors pass through; late calls are cut and cancelled."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from boundloop.reasoners.llm.deadline import DeadlineExceeded, run_within


async def value_after(seconds: float, value: str) -> str:
    await asyncio.sleep(seconds)
    return value


async def failing() -> None:
    raise KeyError("boom")


def test_a_result_in_time_comes_back():
    assert run_within(1.0, value_after(0.01, "ok")) == "ok"


def test_the_calls_own_error_comes_back_unchanged():
    with pytest.raises(KeyError):
        run_within(1.0, failing())


def test_a_late_call_is_cut_at_its_deadline_and_cancelled():
    cancelled = threading.Event()

    async def slow() -> None:
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    started = time.monotonic()
    with pytest.raises(DeadlineExceeded):
        run_within(0.2, slow())
    assert time.monotonic() - started < 0.6
    assert cancelled.wait(1.0)


def test_calls_from_many_threads_share_the_loop_without_waiting_for_each_other():
    results: list[str] = []

    def call(i: int) -> None:
        results.append(run_within(2.0, value_after(0.3, str(i))))

    started = time.monotonic()
    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [str(i) for i in range(8)] and time.monotonic() - started < 1.5
