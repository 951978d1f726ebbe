"""A client that leaves a stream after its first event, against a real uvicorn server: for the test and the bench.

The server runs in this process (a thread), so the run store can be watched directly; the reasoner takes
`STEP_S` a step, so the run is still going when the client leaves.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import uvicorn

from boundloop.reasoners.offline import OfflineReasoner
from boundloop.service.app import create_app
from boundloop.service.state import ServiceState
from tests.service.keys import auth
from tests.service.servers import free_port

STEP_S = 0.25
QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}


class SlowReasoner(OfflineReasoner):
    """The offline reasoner, `STEP_S` slower a step (a model call's latency), counting its calls."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def _slow(self) -> None:
        self.calls += 1
        time.sleep(STEP_S)

    def plan(self, *args: Any, **kwargs: Any) -> Any:
        self._slow()
        return super().plan(*args, **kwargs)

    def evaluate(self, *args: Any, **kwargs: Any) -> Any:
        self._slow()
        return super().evaluate(*args, **kwargs)

    def synthesise(self, *args: Any, **kwargs: Any) -> Any:
        self._slow()
        return super().synthesise(*args, **kwargs)

    def judge(self, *args: Any, **kwargs: Any) -> Any:
        self._slow()
        return super().judge(*args, **kwargs)


@contextmanager
def uvicorn_server(state: ServiceState) -> Iterator[str]:
    """The app over `state` on a real uvicorn server on a free loopback port, in a thread; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(state), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="uvicorn-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@dataclass
class Left:
    """What happened after the client left: the run's status, and when the run ended (None: not within the wait)."""

    status: str | None
    seconds_to_end: float | None
    calls_when_left: int
    calls_after: int
    view: dict[str, Any]
    """GET /runs/{id} afterwards."""


def leave_after_first_event(base: str, state: ServiceState, reasoner: SlowReasoner, wait_s: float = 10.0) -> Left:
    """POST /ask/stream, read the first event, close the connection; watch the run store until the run ends."""
    with httpx.Client(timeout=30) as client, \
            client.stream("POST", base + "/ask/stream", json=QUESTION, headers=auth("bob")) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if line.startswith("data:"):
                break
    left = time.monotonic()
    calls_when_left = reasoner.calls
    ended = None
    while time.monotonic() - left < wait_s:
        if state.store.count("cancelled") or state.store.finished_runs():
            ended = time.monotonic() - left
            break
        time.sleep(0.005)
    time.sleep(4 * STEP_S)  # long enough for more steps, had the run gone on
    conversation = state.store.conversations("bob", limit=1)[0]
    run_id = state.store.turn_rows(conversation.conversation_id)[-1].run_id
    view = httpx.get(f"{base}/runs/{run_id}", headers=auth("bob")).json()
    return Left(state.store.status(run_id), ended, calls_when_left, reasoner.calls, view)
