"""Runs the loop's stream in one worker thread and hands its events to the event loop as server-sent events.

The whole run stays on one thread (LangGraph's sync stream is not meant to hop threads between steps). The first
event is awaited before the response starts, so a request that fails early still gets a proper 4xx or 5xx.
When the client disconnects, sse-starlette cancels the frames; the thread then closes the run's stream at its next
transition, and the runner records the run cancelled: no more steps are paid for nobody.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from typing import Any

from sse_starlette import ServerSentEvent

from boundloop.domain.result import RunResult
from boundloop.domain.trace import Span
from boundloop.service import metrics
from boundloop.service.sse import sse_event
from boundloop.service.state import ServiceState

log = logging.getLogger(__name__)
_DONE = object()
Event = tuple[str, Span | RunResult]


def _start_producer(produce: Callable[[], Iterator[Event]], stop: threading.Event) -> asyncio.Queue[Any]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()

    def run() -> None:
        events: Iterator[Event] = iter(())
        try:
            events = produce()  # inside: a failure to start the run reaches the consumer, which would wait forever
            for event in events:
                if stop.is_set():  # the reader left: close the run here, on its own thread
                    break
                loop.call_soon_threadsafe(queue.put_nowait, event)
        except BaseException as exc:  # handed to the consumer, which re-raises or reports it
            loop.call_soon_threadsafe(queue.put_nowait, exc)
        finally:
            if isinstance(events, Generator):
                events.close()  # a run stopped before its end is recorded cancelled (loop.runner)
            loop.call_soon_threadsafe(queue.put_nowait, _DONE)

    threading.Thread(target=run, name="boundloop-stream", daemon=True).start()
    return queue


async def open_stream(state: ServiceState, question: str, user: str,
                      conversation_id: str | None = None) -> AsyncIterator[ServerSentEvent]:
    """Start the run; raises here (before any byte is sent) if it fails before its first transition."""
    started = time.perf_counter()
    stop = threading.Event()
    queue = _start_producer(lambda: state.runner.stream(question, user, conversation_id, cancel=stop), stop)
    try:
        first = await queue.get()
    except BaseException:  # the request was cancelled before the first event
        stop.set()
        raise
    if isinstance(first, BaseException):
        metrics.record_failure("ask_stream")
        raise first
    return _frames(state, first, queue, started, stop)


async def _frames(state: ServiceState, first: Any, queue: asyncio.Queue[Any], started: float,
                  stop: threading.Event) -> AsyncIterator[ServerSentEvent]:
    try:
        async for frame in _events(state, first, queue, started):
            yield frame
    finally:
        stop.set()  # the client left (or the stream ended): the run stops at its next transition


async def _events(state: ServiceState, first: Any, queue: asyncio.Queue[Any], started: float
                  ) -> AsyncIterator[ServerSentEvent]:
    item = first
    while item is not _DONE:
        if isinstance(item, BaseException):
            # Headers are sent: the failure becomes the stream's last event; details stay in the server log.
            log.error("run failed mid-stream", exc_info=item)
            metrics.record_failure("ask_stream")
            yield sse_event("error", {"detail": "the run failed; see the server log"})
            return
        kind, payload = item
        if kind == "span":
            yield sse_event("span", Span.model_validate(payload).model_dump(mode="json"))
        else:
            result = RunResult.model_validate(payload)
            metrics.record_run(result, time.perf_counter() - started, "ask_stream", state.limits)
            yield sse_event("result", result.model_dump(mode="json"))
        item = await queue.get()
