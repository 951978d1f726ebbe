"""What an ASGI app answered a request: its status and how long it took, for the middlewares that report on it."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class ResponseWatch:
    """Pass `watch.send` to the app instead of `send`; `status` is 500 until a response starts."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.status = 500
        self.started = time.perf_counter()

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        await self._send(message)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


class ReportingMiddleware:
    """Runs the app and reports each HTTP response once it is done, also when the app raised (status 500)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def reporting(self) -> bool:
        """Whether to watch responses at all."""
        return True

    def report(self, scope: Scope, route: str | None, watch: ResponseWatch) -> None:
        """Report one finished response; `route` is the route template it matched, if any."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.reporting():
            await self.app(scope, receive, send)
            return
        watch = ResponseWatch(send)
        try:
            await self.app(scope, receive, watch.send)
        finally:
            self.report(scope, getattr(scope.get("route"), "path", None), watch)
