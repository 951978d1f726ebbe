"""Rates: how many requests a credential or a client address may make in a moving window. Pure.

The counting itself is the `limits` library's moving window (`service.rate_store`); this module says what a rate
is, how a worker's share of it is cut, and what a refusal tells the client.
A failed authentication costs more (`FAILED_AUTH_COST`), so guessing keys from one address stops quickly.
"""

from __future__ import annotations

import math

from limits import RateLimitItem, RateLimitItemPerSecond
from pydantic import BaseModel, ConfigDict, Field

FAILED_AUTH_COST = 10


class Rate(BaseModel):
    """`requests` in any `per_s` seconds (a moving window: a burst of all of them at once is allowed)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requests: int = Field(gt=0, description="Requests allowed in any window of `per_s` seconds.")
    per_s: int = Field(gt=0, description="The window's length in seconds.")

    @classmethod
    def of(cls, setting: tuple[int, int] | None) -> Rate | None:
        """A rate setting, `(requests, seconds)` as `policies.settings` parses '30/10s'; None (`off`) is no limit."""
        return cls(requests=setting[0], per_s=setting[1]) if setting else None

    def share(self, workers: int) -> Rate:
        """One worker's part when `workers` count apart: 120/60s over 2 workers is 60/60s each (at least 1)."""
        return self if workers <= 1 else Rate(requests=max(1, self.requests // workers), per_s=self.per_s)

    @property
    def item(self) -> RateLimitItem:
        """The same rate as the `limits` library's item (its key includes the amount, so shares never mix)."""
        return RateLimitItemPerSecond(self.requests, self.per_s)

    def __str__(self) -> str:
        return f"{self.requests}/{self.per_s}s"


def retry_after(wait_s: float) -> int:
    """The `Retry-After` value: whole seconds, at least 1."""
    return max(1, math.ceil(wait_s))
