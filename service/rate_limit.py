"""Token buckets: how many requests a credential or a client address may make. Pure; the clock is passed in.

A bucket holds up to `Rate.requests` tokens and refills at `requests / per_s` tokens a second; a request takes one.
A failed authentication costs more (`FAILED_AUTH_COST`), so guessing keys from one address stops quickly.
"""

from __future__ import annotations

import math
from collections import OrderedDict

from pydantic import BaseModel, ConfigDict, Field

FAILED_AUTH_COST = 10.0
MAX_TRACKED = 10_000  # buckets kept per table; the least recently used go first (a full bucket loses nothing)


class Rate(BaseModel):
    """`requests` per `per_s` seconds, with bursts of up to `requests`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requests: int = Field(gt=0, description="Bucket size: the burst a client may send at once.")
    per_s: float = Field(gt=0, description="Seconds in which a spent bucket refills completely.")

    @classmethod
    def of(cls, setting: tuple[int, int] | None) -> Rate | None:
        """A rate setting, `(requests, seconds)` as `policies.settings` parses '30/10s'; None (`off`) is no limit."""
        return cls(requests=setting[0], per_s=setting[1]) if setting else None

    def __str__(self) -> str:
        return f"{self.requests}/{self.per_s:g}s"


class TokenBuckets:
    """One bucket per key (a credential's digest, a client address)."""

    def __init__(self, rate: Rate, max_tracked: int = MAX_TRACKED) -> None:
        self.rate = rate
        self._refill_per_s = rate.requests / rate.per_s
        self._max_tracked = max_tracked
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)

    def _level(self, key: str, now: float) -> float:
        tokens, at = self._buckets.get(key, (float(self.rate.requests), now))
        return min(float(self.rate.requests), tokens + (now - at) * self._refill_per_s)

    def _store(self, key: str, tokens: float, now: float) -> None:
        self._buckets[key] = (tokens, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > self._max_tracked:
            self._buckets.popitem(last=False)

    def take(self, key: str, now: float, cost: float = 1.0) -> float:
        """Take `cost` tokens (0 only checks): 0.0 if granted, else the seconds until one is available."""
        tokens = self._level(key, now)
        if tokens >= 1.0:
            self._store(key, tokens - cost, now)
            return 0.0
        self._store(key, tokens, now)
        return (1.0 - tokens) / self._refill_per_s

    def charge(self, key: str, cost: float, now: float) -> None:
        """Take `cost` more tokens after the fact (a failed authentication); the bucket may go below zero."""
        self._store(key, max(-float(self.rate.requests), self._level(key, now) - cost), now)


def retry_after(wait_s: float) -> int:
    """The `Retry-After` value: whole seconds, at least 1."""
    return max(1, math.ceil(wait_s))
