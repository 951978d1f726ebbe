"""ASGI middleware: 429 with `Retry-After` once a credential or a client address has spent its token bucket.

It runs before authentication, so requests with a wrong key are counted as well, and a request answered with 401
costs its address and its credential `FAILED_AUTH_COST` tokens instead of one. Mounted in the LangGraph server,
the FastAPI app's middleware wraps the server's routes too, so the same limits hold there. Health checks and CORS
preflights are not counted, nor is a GET without a credential (the web page and its assets) unless it is refused
with 401; a spent address gets 429 for those too. Buckets live in each worker process.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from boundloop.service.rate_limit import FAILED_AUTH_COST, Rate, TokenBuckets, retry_after
from boundloop.service.response_watch import ResponseWatch

UNCOUNTED_PATHS = frozenset({"/healthz", "/metrics", "/ok"})


def _credential_key(headers: dict[bytes, bytes]) -> str | None:
    """A digest of the request's credential headers, never the credential itself."""
    presented = [headers.get(b"authorization", b""), headers.get(b"x-api-key", b"")]
    if not any(presented):
        return None
    return hashlib.sha256(b"\0".join(presented)).hexdigest()


class RateLimitMiddleware:
    """Per-credential and per-address token buckets; either may be off (None)."""

    def __init__(self, app: ASGIApp, per_key: Rate | None, per_address: Rate | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.keys = TokenBuckets(per_key) if per_key else None
        self.addresses = TokenBuckets(per_address) if per_address else None
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "OPTIONS" or scope.get("path") in UNCOUNTED_PATHS \
                or not (self.keys or self.addresses):
            await self.app(scope, receive, send)
            return
        now = self.clock()
        address = (scope.get("client") or ("unknown",))[0]
        key = _credential_key(dict(scope.get("headers", [])))
        free = key is None and scope["method"] in ("GET", "HEAD")
        wait = self.addresses.take(address, now, cost=0.0 if free else 1.0) if self.addresses else 0.0
        if not wait and key and self.keys:
            wait = self.keys.take(key, now)
        if wait:
            await _too_many(send, retry_after(wait))
            return
        watch = ResponseWatch(send)
        await self.app(scope, receive, watch.send)
        if watch.status == 401:
            if self.addresses:
                self.addresses.charge(address, FAILED_AUTH_COST - 1, self.clock())
            if key and self.keys:
                self.keys.charge(key, FAILED_AUTH_COST - 1, self.clock())


async def _too_many(send: Send, seconds: int) -> None:
    body = json.dumps({"detail": f"too many requests; retry after {seconds} s"}).encode()
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(seconds).encode()),
    ]})
    await send({"type": "http.response.body", "body": body})
