"""The budget governor's policy: hard limits, and a pure check made before every step.

In the spirit of pydantic-ai's `UsageLimits.check_before_request`: given the usage so far and the limits, return
None ("go") or the reason to stop. The clock is read by the caller and passed in as `elapsed_s`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Literal

from policies.errors import BoundloopError

StopReason = Literal["hops", "tokens", "time", "retrieval_calls"]
WorkingStep = Literal["understand", "plan", "retrieve", "evaluate", "refine"]


@dataclass(frozen=True)
class BudgetLimits:
    """Hard limits of one run. Deployment settings only: never from the question, a request or the model."""

    max_hops: int = 3
    max_tokens: int = 45_000
    max_seconds: float = 18.0
    max_retrieval_calls: int = 6

    @classmethod
    def from_env(cls) -> BudgetLimits:
        """Limits from `BOUNDLOOP_MAX_HOPS`, `_MAX_TOKENS`, `_MAX_SECONDS`, `_MAX_RETRIEVAL_CALLS`."""
        defaults = cls()
        return cls(
            max_hops=int(_positive_setting("BOUNDLOOP_MAX_HOPS", defaults.max_hops, whole=True)),
            max_tokens=int(_positive_setting("BOUNDLOOP_MAX_TOKENS", defaults.max_tokens, whole=True)),
            max_seconds=_positive_setting("BOUNDLOOP_MAX_SECONDS", defaults.max_seconds, whole=False),
            max_retrieval_calls=int(
                _positive_setting("BOUNDLOOP_MAX_RETRIEVAL_CALLS", defaults.max_retrieval_calls, whole=True)
            ),
        )


def _positive_setting(name: str, default: float, whole: bool) -> float:
    """A limit from the environment; an unset or blank variable keeps the default, anything else must be valid."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        kind = "a whole number" if whole else "a number of seconds"
        raise BoundloopError(f"{name}={raw!r} is not {kind}") from None
    if not math.isfinite(value) or value <= 0:
        raise BoundloopError(f"{name}={raw!r} must be positive")
    return value


@dataclass(frozen=True)
class Usage:
    """What a run has spent so far."""

    hops: int = 0
    tokens: int = 0
    retrieval_calls: int = 0
    elapsed_s: float = 0.0

    def as_dict(self) -> dict[str, int]:
        return {
            "hops": self.hops, "tokens": self.tokens, "retrieval_calls": self.retrieval_calls,
            "elapsed_ms": int(self.elapsed_s * 1000),
        }


def check_before_step(step: str, usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """None if `step` may run; otherwise the limit that forbids it. Closing steps are never refused here."""
    if step not in ("understand", "plan", "retrieve", "evaluate", "refine"):
        return None
    if usage.elapsed_s >= limits.max_seconds:
        return "time"
    if usage.tokens >= limits.max_tokens:
        return "tokens"
    if step == "retrieve":
        if usage.hops >= limits.max_hops:
            return "hops"
        if usage.retrieval_calls >= limits.max_retrieval_calls:
            return "retrieval_calls"
    return None


def check_before_retrieval_call(usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """None if one more retrieval call may start now; checked before each call inside a hop."""
    if usage.elapsed_s >= limits.max_seconds:
        return "time"
    if usage.retrieval_calls >= limits.max_retrieval_calls:
        return "retrieval_calls"
    return None


def check_before_model_call(estimated_tokens: int, usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """None if a model call of about `estimated_tokens` fits in what is left; otherwise it must not be sent."""
    if usage.elapsed_s >= limits.max_seconds:
        return "time"
    if usage.tokens + estimated_tokens > limits.max_tokens:
        return "tokens"
    return None


def remaining_seconds(usage: Usage, limits: BudgetLimits) -> float:
    """Time left before the deadline (never negative): every call in flight gets this as its timeout."""
    return max(0.0, limits.max_seconds - usage.elapsed_s)


def estimate_tokens(*texts: str) -> int:
    """A provider-free token estimate (about four characters a token), for calls that report no usage."""
    return sum(len(t) for t in texts) // 4 + 1
