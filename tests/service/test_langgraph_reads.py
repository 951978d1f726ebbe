"""Only verified text, and only what the caller may still read, leaves the LangGraph server (issue 31, item 6).

Without a server: the auth handler's refusals of interrupts and raw event streams, and `WithholdUnreadable` over
stand-in routes shaped like the server's (a thread's state, a search, a history, a joined stream, a WebSocket).
`tests/service/test_langgraph_verified.py` runs the same checks against a real `langgraph dev`.
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest
from langgraph_sdk import Auth
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from boundloop.service import langgraph_auth
from boundloop.service.langgraph_reads import WithholdUnreadable
from boundloop.service.run_access import WITHHELD
from boundloop.service.shown_text import chunk_ids
from tests.service.keys import auth

QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}
HR = {"evidence": [{"chunk_id": "salaries#0", "text": "L5 engineers earn ... CANARY-HR-1111."}],
      "turns": [{"answer": "EUR 80,000 to EUR 95,000 [1]", "shown_chunks": ["salaries#0"]}]}
STAFF = {"evidence": [{"chunk_id": "expense#0", "text": "Expense claims above EUR 5,000 ..."}],
         "claims": [{"text": "The Head of Finance approves.", "citations": ["expense#0"]}]}


def _ctx(user: str, admin: bool = False) -> Auth.types.AuthContext:
    permissions = [langgraph_auth.STATE_WRITER] if admin else []
    return Auth.types.AuthContext(user=SimpleNamespace(identity=user), permissions=permissions,
                                  resource="threads", action="create_run")


def _create_run(ctx: Auth.types.AuthContext, **kwargs) -> int:
    """The handler's answer to a run created with these options: 200, or the status it refused with."""
    try:
        asyncio.run(langgraph_auth.create_run(ctx, {"kwargs": {"input": QUESTION, **kwargs}}))
    except Auth.exceptions.HTTPException as refused:
        return refused.status_code
    return 200


@pytest.mark.parametrize("options", [
    {"interrupt_before": ["verify"]}, {"interrupt_before": "*"}, {"interrupt_after": ["synthesise"]},
    {"interrupt_after": "*", "stream_mode": ["values"]}, {"stream_mode": ["events"]},
    {"stream_mode": ["values", "events"]},
])
def test_only_admins_may_interrupt_a_run_or_stream_its_raw_events(options):
    assert _create_run(_ctx("bob"), **options) == 403
    assert _create_run(_ctx("grace", admin=True), **options) == 200


def test_other_stream_modes_and_empty_interrupt_lists_stay_open():
    modes = ["values", "updates", "messages", "messages-tuple", "debug", "tasks", "checkpoints", "custom"]
    assert _create_run(_ctx("bob"), stream_mode=modes, interrupt_before=[], interrupt_after=None) == 200


def test_chunk_ids_are_found_wherever_the_state_and_result_name_them():
    values = {"evidence": [{"chunk_id": "a#0"}], "claims": [{"citations": ["b#0"]}],
              "citations": [{"marker": 1, "chunk_id": "c#0"}], "conflicts": [{"chunk_ids": ["d#0", "e#0"]}],
              "turns": [{"shown_chunks": ["f#0"]}], "context_chunks": ["g#0"], "spans": [{"decision": "a#9"}]}
    assert chunk_ids([{"values": values}]) == {"a#0", "b#0", "c#0", "d#0", "e#0", "f#0", "g#0"}
    assert chunk_ids({"values": {"question": "q", "spans": []}}) == set()


def _events(*values: dict) -> bytes:
    parts = [b"event: metadata\r\ndata: {\"run_id\": \"r\"}\r\n\r\n", b": heartbeat\r\n\r\n"]
    parts += [b"event: values\r\ndata: " + json.dumps(v).encode() + b"\r\n\r\n" for v in values]
    return b"".join(parts)


async def _socket(websocket: WebSocket) -> None:
    await websocket.accept()
    for values in (STAFF, HR, STAFF):
        await websocket.send_json({"event": "values", "data": values})
    await websocket.close()


async def _raw_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    await websocket.send_json({"event": "values", "data": STAFF})
    await websocket.send_text("salaries#0 CANARY")
    await websocket.close()


def _server_like_app() -> Starlette:
    async def stream(request):
        async def body():
            yield _events(STAFF)[:30]  # an event split over two sends
            yield _events(STAFF)[30:]
            yield _events(HR, STAFF)

        return StreamingResponse(body(), media_type="text/event-stream")

    return Starlette(routes=[
        Route("/threads/t/state", lambda r: JSONResponse({"values": HR, "next": []})),
        Route("/threads/u/state", lambda r: JSONResponse({"values": STAFF, "next": []})),
        Route("/threads/search", lambda r: JSONResponse([{"thread_id": "t", "values": HR, "interrupts": {}},
                                                         {"thread_id": "u", "values": STAFF}]), methods=["POST"]),
        Route("/threads/t/history", lambda r: JSONResponse([{"values": {"question": "q"}, "checkpoint": {"id": 1}},
                                                            {"values": HR, "tasks": [{"id": "x"}],
                                                             "checkpoint": {"id": 2}}])),
        Route("/threads/t/runs/r/stream", stream),
        Route("/threads/t/empty", lambda r: JSONResponse({"values": {"question": "q"}})),
        Route("/threads/t/text", lambda r: Response("not json", media_type="application/json")),
        Route("/threads/t/blank", lambda r: Response("", media_type="application/json")),
        Route("/threads/t/raw", lambda r: StreamingResponse(iter([_events(STAFF), b"event: values\r\ndata: salaries#0 "
                                                                  b"CANARY\r\n\r\n", _events(STAFF)]),
                                                            media_type="text/event-stream")),
        WebSocketRoute("/threads/t/raw/events", _raw_socket),
        Route("/runs/r", lambda r: JSONResponse({"result": HR})),  # boundloop's own route: it checks for itself
        WebSocketRoute("/threads/t/stream/events", _socket),
    ])


@pytest.fixture
def served(state):
    looked_up = []

    def shared_state():
        looked_up.append(True)
        return state

    with TestClient(WithholdUnreadable(_server_like_app(), state=shared_state)) as client:
        yield client, looked_up


def test_a_thread_state_showing_an_unreadable_chunk_is_withheld(served):
    client, looked_up = served
    refused = client.get("/threads/t/state", headers=auth("bob"))  # bob is not in hr
    assert refused.status_code == 403 and refused.json() == {"detail": WITHHELD} and "CANARY" not in refused.text
    assert client.get("/threads/t/state", headers=auth("alice")).json() == {"values": HR, "next": []}
    assert client.get("/threads/u/state", headers=auth("bob")).json()["values"] == STAFF
    assert client.get("/threads/t/state", headers={"X-API-Key": "nobody's"}).status_code == 403  # fail closed
    looked_up.clear()
    assert client.get("/threads/t/empty", headers=auth("bob")).status_code == 200
    unchecked = client.get("/threads/t/text", headers=auth("bob"))  # what it names cannot be known: fail closed
    assert unchecked.status_code == 502 and "not json" not in unchecked.text
    assert client.get("/threads/t/blank", headers=auth("bob")).status_code == 200
    assert client.get("/runs/r", headers=auth("bob")).json() == {"result": HR}
    assert not looked_up  # nothing named a chunk, or the route was not the server's: no directory lookup


def test_listed_threads_and_checkpoints_lose_only_their_text(served):
    client, _ = served
    threads = client.post("/threads/search", headers=auth("bob")).json()
    assert threads == [{"thread_id": "t", "values": {}, "interrupts": {}, "withheld": True},
                       {"thread_id": "u", "values": STAFF}]
    history = client.get("/threads/t/history", headers=auth("bob")).json()
    assert history == [{"values": {"question": "q"}, "checkpoint": {"id": 1}},
                       {"values": {}, "tasks": [], "checkpoint": {"id": 2}, "withheld": True}]
    assert client.post("/threads/search", headers=auth("alice")).json()[0]["values"] == HR


def test_a_stream_ends_at_the_first_event_showing_an_unreadable_chunk(served):
    client, _ = served
    bob = client.get("/threads/t/runs/r/stream", headers=auth("bob")).content
    error = b"event: error\r\ndata: " + json.dumps({"error": "Forbidden", "message": WITHHELD}).encode() + b"\r\n\r\n"
    assert bob == _events(STAFF) + _events() + error  # the second run's metadata and heartbeat, then the end
    assert client.get("/threads/t/runs/r/stream", headers=auth("alice")).content == _events(STAFF) + _events(HR, STAFF)


def test_a_websocket_closes_at_the_first_message_showing_an_unreadable_chunk(served):
    client, _ = served
    with client.websocket_connect("/threads/t/stream/events", headers=auth("bob")) as socket:
        assert socket.receive_json()["data"] == STAFF
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 1008
    with client.websocket_connect("/threads/t/stream/events", headers=auth("alice")) as socket:
        assert [socket.receive_json()["data"] for _ in range(3)] == [STAFF, HR, STAFF]


def test_a_server_mounted_under_a_prefix_is_guarded_too(state):
    """`mount_prefix`: the server's app sits under a Mount, and its routes see the path without the prefix."""
    prefixed = Starlette(routes=[Mount("/api", app=WithholdUnreadable(_server_like_app(), state=lambda: state))])
    with TestClient(prefixed) as client:
        assert client.get("/api/threads/t/state", headers=auth("bob")).status_code == 403
        assert client.get("/api/threads/u/state", headers=auth("bob")).status_code == 200


def test_an_event_or_message_that_is_not_json_ends_the_stream(served):
    """Data the guard cannot parse could name anything: it is withheld, as an unreadable chunk would be."""
    client, _ = served
    for user in ("bob", "alice"):
        events = client.get("/threads/t/raw", headers=auth(user)).content
        assert events.startswith(_events(STAFF)) and b"CANARY" not in events and WITHHELD.encode() in events
        with client.websocket_connect("/threads/t/raw/events", headers=auth(user)) as socket:
            assert socket.receive_json()["data"] == STAFF
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
        assert closed.value.code == 1008
