"""Where rate-limit counts live: this worker's memory, or a Redis every worker and host shares (`limits` library).

The counting is the `limits` library's moving window; `BOUNDLOOP_RATE_STORAGE` names the shared store.

Counted in memory with several workers (`WEB_CONCURRENCY`, which `boundloop serve --workers N` sets), each worker
allows its share of a rate (the rate divided by the workers), so the whole service still allows at most the rate.
If the shared store goes away while serving, each worker falls back to counting its share in memory and tries the
store again every `RETRY_SHARED_S` seconds: the limit still holds, and an outage of a store that only counts
requests does not take search down with it (failing closed would turn every request into a 503).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

from limits import RateLimitItem
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter as SharedLimiter
from limits.errors import StorageError
from limits.storage import MemoryStorage
from limits.storage import RedisStorage as SyncRedisStorage
from limits.strategies import MovingWindowRateLimiter as MemoryLimiter

from boundloop.policies.errors import BoundloopError
from boundloop.service.rate_limit import Rate

SETTING = "BOUNDLOOP_RATE_STORAGE"
MEMORY = "memory://"
SHARED_SCHEMES = ("redis", "rediss", "redis+unix")
RETRY_SHARED_S = 5.0
TIMEOUT_S = 0.5  # a request waits at most this long on an unresponsive store before it is counted in memory
log = logging.getLogger(__name__)
T = TypeVar("T")


class RateStoreError(BoundloopError):
    """`BOUNDLOOP_RATE_STORAGE` names no store we can use, or one we cannot reach."""


def shown(uri: str) -> str:
    """The URI with any password masked: `redis://:***@cache:6379/0`."""
    parts = urlsplit(uri)
    if parts.password is None:
        return uri
    return uri.replace(f":{parts.password}@", ":***@", 1)


def shared_uri(uri: str | None) -> str | None:
    """The shared store's URI, None for this worker's memory; `RateStoreError` for a scheme we do not count in."""
    if not uri or uri == MEMORY:
        return None
    if urlsplit(uri).scheme not in SHARED_SCHEMES:
        raise RateStoreError(f"{SETTING}={shown(uri)!r} must be memory:// or redis://host:port[/db] "
                             "(rediss:// for TLS)")
    return uri


def check_reachable(uri: str | None) -> None:
    """A shared store answers PING, or `RateStoreError` naming the setting (run once, before workers start)."""
    shared = shared_uri(uri)
    if shared is None:
        return
    storage = SyncRedisStorage(shared, socket_connect_timeout=TIMEOUT_S * 4, socket_timeout=TIMEOUT_S * 4)
    if not storage.check():
        raise RateStoreError(f"{SETTING}={shown(shared)!r}: the rate-limit store does not answer")


class _Window(Protocol):
    """A moving-window counter: count `cost` if it fits, check whether one more fits, and the window's state."""

    async def hit(self, item: RateLimitItem, key: str, cost: int) -> bool: ...

    async def fits(self, item: RateLimitItem, key: str) -> bool: ...

    async def window(self, item: RateLimitItem, key: str) -> tuple[float, int]: ...


class _Memory:
    """Counts in this process; `limits`' memory storage is thread-safe and never waits, so it is called inline."""

    def __init__(self) -> None:
        self._limiter = MemoryLimiter(MemoryStorage())

    async def hit(self, item: RateLimitItem, key: str, cost: int) -> bool:
        return self._limiter.hit(item, key, cost=cost)

    async def fits(self, item: RateLimitItem, key: str) -> bool:
        return self._limiter.test(item, key)

    async def window(self, item: RateLimitItem, key: str) -> tuple[float, int]:
        stats = self._limiter.get_window_stats(item, key)
        return stats.reset_time, stats.remaining


class _Shared:
    """Counts in Redis through its asyncio client, so a slow store never blocks the event loop."""

    def __init__(self, uri: str) -> None:
        storage = RedisStorage("async+" + uri, implementation="redispy", wrap_exceptions=True, key_prefix="boundloop",
                               socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S)
        self._limiter = SharedLimiter(storage)

    async def hit(self, item: RateLimitItem, key: str, cost: int) -> bool:
        return await self._limiter.hit(item, key, cost=cost)

    async def fits(self, item: RateLimitItem, key: str) -> bool:
        return await self._limiter.test(item, key)

    async def window(self, item: RateLimitItem, key: str) -> tuple[float, int]:
        stats = await self._limiter.get_window_stats(item, key)
        return stats.reset_time, stats.remaining


class RateCounter:
    """Counts requests against rates, in the shared store when there is one, else in this worker's memory."""

    def __init__(self, uri: str | None = None, workers: int = 1) -> None:
        shared = shared_uri(uri)
        self.workers = workers
        self._memory: _Window = _Memory()
        self._shared: _Window | None = _Shared(shared) if shared else None
        self._down_until = 0.0

    @property
    def shared(self) -> bool:
        return self._shared is not None

    def _pick(self, rate: Rate) -> tuple[_Window, RateLimitItem]:
        if self._shared is not None and time.monotonic() >= self._down_until:
            return self._shared, rate.item
        return self._memory, rate.share(self.workers).item

    async def _on(self, rate: Rate, call: Callable[[_Window, RateLimitItem], Awaitable[T]]) -> T:
        """`call` on the shared store, or on this worker's memory (and share) while the store is down."""
        window, item = self._pick(rate)
        try:
            return await call(window, item)
        except StorageError as exc:
            if self._down_until <= time.monotonic():
                log.warning("%s: the rate-limit store failed (%s); each worker counts its share in memory and "
                            "retries the store in %g s", SETTING, exc.storage_error, RETRY_SHARED_S)
            self._down_until = time.monotonic() + RETRY_SHARED_S
            return await call(self._memory, rate.share(self.workers).item)

    async def take(self, rate: Rate, key: str, cost: int = 1) -> float:
        """Count `cost` requests (0 only checks that one more fits): 0.0 if granted, else seconds until one fits."""
        if cost:
            granted = await self._on(rate, lambda window, item: window.hit(item, key, cost))
        else:
            granted = await self._on(rate, lambda window, item: window.fits(item, key))
        if granted:
            return 0.0
        reset, _ = await self._on(rate, lambda window, item: window.window(item, key))
        return max(reset - time.time(), 0.0)

    async def charge(self, rate: Rate, key: str, cost: int) -> None:
        """Count `cost` more after the fact (a failed authentication), as many as still fit in the window."""
        _, remaining = await self._on(rate, lambda window, item: window.window(item, key))
        if min(cost, remaining) > 0:
            await self._on(rate, lambda window, item: window.hit(item, key, min(cost, remaining)))
