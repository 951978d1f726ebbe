"""ASGI middleware of the service: request body limits, and request latency for `/metrics`.

The latency metrics cover only the service's own routes. When the app is mounted into the LangGraph server
(`http.app`), the body limit's default also caps the server's routes (its middleware wraps every route).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boundloop.service import metrics
from boundloop.service.response_watch import ReportingMiddleware, ResponseWatch


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    payload = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})


class BodyLimitMiddleware:
    """Refuses a body over its route's limit with 413 before the route reads it.

    Paths without a limit of their own get `default` (None lets them pass untouched). Mounted in the LangGraph
    server, the default holds the server's own routes (runs, threads, state) to it too. The body is read (up to
    the limit) and replayed to the route, so a client that sends no Content-Length, or a false one, is held to the
    same limit.
    """

    def __init__(self, app: ASGIApp, limits: Mapping[str, int], default: int | None = None) -> None:
        self.app = app
        self.limits = dict(limits)
        self.default = default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.limits.get(scope.get("path", ""), self.default) if scope["type"] == "http" else None
        if limit is None:
            await self.app(scope, receive, send)
            return
        too_large = {"detail": f"the request body is larger than {limit} bytes"}
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await _send_json(send, 400, {"detail": "the Content-Length header is not a number"})
                return
            if int(declared) > limit:
                await _send_json(send, 413, too_large)
                return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await _send_json(send, 413, too_large)
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)


class RequestMetricsMiddleware(ReportingMiddleware):
    """Observes each request's latency under its route template (never the raw path, which holds run ids)."""

    def __init__(self, app: ASGIApp, paths: frozenset[str]) -> None:
        super().__init__(app)
        self.paths = paths

    def report(self, scope: Scope, route: str | None, watch: ResponseWatch) -> None:
        if route in self.paths:
            metrics.observe_request(scope["method"], route, watch.status, watch.seconds)
