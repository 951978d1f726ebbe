"""The LangGraph server's thread and run routes show only what their caller may still read, as boundloop's own do.

`GET /runs/{id}` re-checks access on every read (`service.run_access`); the server's own routes never did, so after
a group was revoked, `GET /threads/{id}/state` and `/history` still showed text its owner could no longer read.
This ASGI middleware wraps those routes (it is added to the FastAPI app the server mounts, `service.langgraph_http`,
whose middleware wraps every route of the server) and checks each response against the directory and the index as
they are now (`service.shown_text`):

- a JSON object (a thread, its state at a checkpoint, a joined run's output, a copy): 403 `run withheld: ...` when
  it names one chunk the caller may not read;
- a JSON list (`/threads/search`, `/history`, runs): each such item keeps its ids and metadata, but its `values`,
  `interrupts` and `tasks` are emptied, and it is marked `"withheld": true`;
- a stream (server-sent events, or the event-streaming WebSocket): the first such event ends it with an `error`
  event (a WebSocket closes with 1008).

A response that names no chunk passes as it is, without a directory lookup. One that cannot be checked fails
closed: a JSON body that does not parse is a 502 `response withheld: ...`, an event or WebSocket message whose data
is not JSON ends the stream as an unreadable chunk would.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boundloop.service.run_access import WITHHELD
from boundloop.service.shown_text import CallerAccess, chunk_ids
from boundloop.service.state import ServiceState, shared_state

GUARDED = re.compile(r"^/(?:threads(?:/|$)|runs/(?:stream|wait)$)")
"""The server's routes that return thread state or run output (`/runs/{id}` and below are boundloop's own)."""
TEXT_KEYS = ("values", "interrupts", "tasks")
"""What a withheld item of a list loses: everything that quotes the run's work."""
EVENT_END = re.compile(rb"\r?\n\r?\n")
WITHHELD_EVENT = b"event: error\r\ndata: %s\r\n\r\n" % json.dumps({"error": "Forbidden", "message": WITHHELD}).encode()
UNCHECKED = "response withheld: it could not be checked"


class _Unparsed:
    """Data that is not JSON: what it names cannot be known, so no caller may read it."""


UNPARSED = _Unparsed()


class WithholdUnreadable:
    """ASGI middleware over the server's thread and run routes (see the module doc)."""

    def __init__(self, app: ASGIApp, state: Callable[[], ServiceState] = shared_state) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not GUARDED.match(_route_path(scope)):
            await self.app(scope, receive, send)
            return
        access = CallerAccess(self.state, scope.get("headers", []))
        guard = _SocketGuard(send, access) if scope["type"] == "websocket" else _ResponseGuard(send, access)
        await self.app(scope, receive, guard)


def _route_path(scope: Scope) -> str:
    """The path the routes match: without the prefix the server may be mounted under (`mount_prefix`)."""
    path, root = scope.get("path", ""), scope.get("root_path", "")
    return path[len(root):] if root and path.startswith(root) else path


async def _withheld_item(item: Any, access: CallerAccess) -> Any:
    """A list item the caller may read as it is; else without its text (or left out, if that still names a chunk)."""
    if await access.may_read(chunk_ids(item)):
        return item
    if not isinstance(item, dict):
        return None
    bare = {key: type(value)() if key in TEXT_KEYS and isinstance(value, dict | list) else value
            for key, value in item.items()}
    return {**bare, "withheld": True} if await access.may_read(chunk_ids(bare)) else None


class _ResponseGuard:
    """The `send` of one HTTP response: JSON is held until complete and checked, events are checked one by one."""

    def __init__(self, send: Send, access: CallerAccess) -> None:
        self.send, self.access = send, access
        self.kind: str | None = None
        self.start: Message | None = None
        self.body = bytearray()
        self.ended = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            content_type = dict(message.get("headers", [])).get(b"content-type", b"")
            self.kind = ("json" if content_type.startswith(b"application/json")
                         else "events" if content_type.startswith(b"text/event-stream") else None)
            if self.kind == "json":
                self.start = message
                return
        elif message["type"] == "http.response.body" and self.kind is not None:
            self.body += message.get("body", b"")
            if self.kind == "json":
                if not message.get("more_body", False):
                    await self._send_json(bytes(self.body))
                return
            await self._send_events(more=message.get("more_body", False))
            return
        await self.send(message)

    async def _send_json(self, body: bytes) -> None:
        assert self.start is not None
        status, body = await self._checked(body, self.start["status"])
        headers = [(k, v) for k, v in self.start.get("headers", []) if k.lower() != b"content-length"]
        await self.send({**self.start, "status": status, "headers": [*headers, (b"content-length",
                                                                                  str(len(body)).encode())]})
        await self.send({"type": "http.response.body", "body": body, "more_body": False})

    async def _checked(self, body: bytes, status: int) -> tuple[int, bytes]:
        if not body.strip():
            return status, body
        value = _parsed(body)
        if value is UNPARSED:
            return 502, json.dumps({"detail": UNCHECKED}).encode()
        if isinstance(value, list):
            items = [await _withheld_item(item, self.access) for item in value]
            if all(new is old for new, old in zip(items, value, strict=True)):
                return status, body
            return status, json.dumps([item for item in items if item is not None]).encode()
        if await self.access.may_read(chunk_ids(value)):
            return status, body
        return 403, json.dumps({"detail": WITHHELD}).encode()

    async def _send_events(self, more: bool) -> None:
        """Pass every complete event the caller may read; the first they may not ends the stream."""
        if self.ended:
            return
        cut = 0
        for end in EVENT_END.finditer(self.body):
            event = bytes(self.body[cut:end.end()])
            cut = end.end()
            data = _event_data(event)
            if data is UNPARSED or not await self.access.may_read(chunk_ids(data)):
                self.ended = True
                await self.send({"type": "http.response.body", "body": WITHHELD_EVENT, "more_body": False})
                return
            await self.send({"type": "http.response.body", "body": event, "more_body": True})
        del self.body[:cut]
        if not more:
            await self.send({"type": "http.response.body", "body": bytes(self.body), "more_body": False})


def _event_data(event: bytes) -> Any:
    """The JSON of a server-sent event's data lines; None without data (a heartbeat), `UNPARSED` if not JSON."""
    data = b"\n".join(line[5:].lstrip(b" ") for line in event.splitlines() if line.startswith(b"data:"))
    return _parsed(data) if data.strip() else None


def _parsed(data: bytes | str) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return UNPARSED


class _SocketGuard:
    """The `send` of one WebSocket: each message is checked; the first the caller may not read closes it."""

    def __init__(self, send: Send, access: CallerAccess) -> None:
        self.send, self.access = send, access
        self.closed = False

    async def __call__(self, message: Message) -> None:
        if self.closed:
            return
        if message["type"] == "websocket.send":
            value = _parsed(message.get("text") or message.get("bytes") or b"null")
            if value is UNPARSED or not await self.access.may_read(chunk_ids(value)):
                self.closed = True
                await self.send({"type": "websocket.close", "code": 1008, "reason": WITHHELD})
                return
        await self.send(message)
