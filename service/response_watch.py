"""What an ASGI app answered a request: its status and how long it took, for the middlewares that report on it."""

from __future__ import annotations

import time

from starlette.types import Message, Send


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
