"""ASGI middleware: 429 with `Retry-After` once a credential or a client address has spent its rate.

It runs before authentication, so requests with a wrong key are counted as well, and a request answered with 401
costs its address and its credential `FAILED_AUTH_COST` tokens instead of one. Mounted in the LangGraph server,
the FastAPI app's middleware wraps the server's routes too, so the same limits hold there. Health checks and CORS
preflights are not counted, nor is a GET without a credential (the web page and its assets) unless it is refused
with 401; a spent address gets 429 for those too. Counts live in `service.rate_store`: this worker's memory (its
share of each rate), or a store every worker shares.
"""

from __future__ import annotations

import hashlib
import json

from starlette.types import ASGIApp, Receive, Scope, Send

from boundloop.service.rate_limit import FAILED_AUTH_COST, Rate, retry_after
from boundloop.service.rate_store import RateCounter
from boundloop.service.response_watch import ResponseWatch

UNCOUNTED_PATHS = frozenset({"/healthz", "/metrics", "/ok"})


def _credential_key(headers: dict[bytes, bytes]) -> str | None:
    """A digest of the request's credential headers, never the credential itself."""
    presented = [headers.get(b"authorization", b""), headers.get(b"x-api-key", b"")]
    if not any(presented):
        return None
    return hashlib.sha256(b"\0".join(presented)).hexdigest()


class RateLimitMiddleware:
    """A rate per credential and one per address; either may be off (None)."""

    def __init__(self, app: ASGIApp, per_key: Rate | None, per_address: Rate | None,
                 counter: RateCounter | None = None) -> None:
        self.app = app
        self.per_key = per_key
        self.per_address = per_address
        self.counter = counter or RateCounter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "OPTIONS" or scope.get("path") in UNCOUNTED_PATHS \
                or not (self.per_key or self.per_address):
            await self.app(scope, receive, send)
            return
        address = "address:" + (scope.get("client") or ("unknown",))[0]
        digest = _credential_key(dict(scope.get("headers", [])))
        key = "key:" + digest if digest else None
        free = key is None and scope["method"] in ("GET", "HEAD")
        wait = await self.counter.take(self.per_address, address, cost=0 if free else 1) if self.per_address else 0.0
        if not wait and key and self.per_key:
            wait = await self.counter.take(self.per_key, key)
        if wait:
            await _too_many(send, retry_after(wait))
            return
        watch = ResponseWatch(send)
        await self.app(scope, receive, watch.send)
        if watch.status == 401:
            if self.per_address:
                await self.counter.charge(self.per_address, address, FAILED_AUTH_COST - 1)
            if key and self.per_key:
                await self.counter.charge(self.per_key, key, FAILED_AUTH_COST - 1)


async def _too_many(send: Send, seconds: int) -> None:
    body = json.dumps({"detail": f"too many requests; retry after {seconds} s"}).encode()
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(seconds).encode()),
    ]})
    await send({"type": "http.response.body", "body": body})
