"""The budget governor's policy: hard limits, and pure checks made before every step, search call and model call.

In the spirit of pydantic-ai's `UsageLimits.check_before_request`: given the usage so far and the limits, return
None ("go") or the reason to stop. The clock is read by the caller and passed in as `usage.elapsed_ms`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from boundloop.domain.steps import NextStep, is_working
from boundloop.domain.usage import StopReason, Usage
from boundloop.policies.model_breaker import ModelBreaker
from boundloop.policies.settings import Settings, settings


@dataclass(frozen=True)
class BudgetLimits:
    """Hard limits of one run. Deployment settings only: never from the question, a request or the model."""

    max_hops: int = 3
    max_tokens: int = 45_000
    max_seconds: float = 18.0
    max_retrieval_calls: int = 6

    @classmethod
    def from_env(cls, configured: Settings | None = None) -> BudgetLimits:
        """Each limit from its setting (`BOUNDLOOP_MAX_HOPS`, `_MAX_TOKENS`, ...; `policies.settings`)."""
        chosen = configured or settings()
        return cls(**{limit.name: getattr(chosen, limit.name) for limit in fields(cls)})


def check_before_step(step: NextStep, usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """None if `step` may run; otherwise the limit that forbids it. Closing steps are never refused here."""
    if not is_working(step):
        return None
    if usage.elapsed_ms >= limits.max_seconds * 1000:
        return "time"
    if usage.tokens >= limits.max_tokens:
        return "tokens"
    if step == "retrieve":
        if usage.hops >= limits.max_hops:
            return "hops"
        if usage.retrieval_calls >= limits.max_retrieval_calls:
            return "retrieval_calls"
    return None


def spent_limit(usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """A limit the run has used up (its time, its tokens), whatever step comes next: the run is then incomplete.

    The closing steps still run; this only records that the deadline or the tokens ran out on the way.
    """
    if usage.elapsed_ms >= limits.max_seconds * 1000:
        return "time"
    if usage.tokens >= limits.max_tokens:
        return "tokens"
    return None


def check_before_retrieval_call(usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """None if one more retrieval call may start now; checked before each call inside a hop."""
    if usage.elapsed_ms >= limits.max_seconds * 1000:
        return "time"
    if usage.retrieval_calls >= limits.max_retrieval_calls:
        return "retrieval_calls"
    return None


def remaining_seconds(usage: Usage, limits: BudgetLimits) -> float:
    """Time left before the deadline (never negative): every call in flight gets this as its timeout."""
    return max(0.0, limits.max_seconds - usage.elapsed_ms / 1000)


def limits_as_usage(limits: BudgetLimits) -> Usage:
    """The limits with the names of `Usage`, so that each can be read against what a run used."""
    return Usage(hops=limits.max_hops, tokens=limits.max_tokens, retrieval_calls=limits.max_retrieval_calls,
                 elapsed_ms=int(limits.max_seconds * 1000))


def used_shares(usage: Usage, limits: BudgetLimits) -> dict[StopReason, float]:
    """The share of each limit a run used, by the stop reason each limit gives."""
    return {
        "hops": usage.hops / limits.max_hops,
        "tokens": usage.tokens / limits.max_tokens,
        "time": usage.elapsed_ms / 1000 / limits.max_seconds,
        "retrieval_calls": usage.retrieval_calls / limits.max_retrieval_calls,
    }


@dataclass(frozen=True)
class CallBudget:
    """What one step may spend on a model call: the time left before the deadline and the tokens left.

    `breaker` is the run's: once a call finds the model unavailable, no later call of the run is sent.
    """

    seconds: float
    tokens: int
    breaker: ModelBreaker = field(default_factory=ModelBreaker, compare=False)

    def allows(self, estimated_tokens: int) -> bool:
        """Whether a call of about `estimated_tokens` fits in the tokens left; one that does not is never sent."""
        return estimated_tokens <= self.tokens

    def after(self, tokens: int) -> CallBudget:
        """What is left once `tokens` are spent (a failed model call's, before its offline fallback)."""
        return CallBudget(seconds=self.seconds, tokens=max(0, self.tokens - tokens), breaker=self.breaker)


def call_budget(usage: Usage, limits: BudgetLimits, breaker: ModelBreaker) -> CallBudget:
    """What is left for the next step's model calls, and whether the run may still call its model."""
    return CallBudget(seconds=remaining_seconds(usage, limits), tokens=max(0, limits.max_tokens - usage.tokens),
                      breaker=breaker)


class BudgetExhausted(Exception):
    """A model call would pass a limit, so it was not sent; the governor closes the run."""

    def __init__(self, reason: StopReason, tokens: int = 0) -> None:
        super().__init__(f"model call not sent: {reason} limit")
        self.reason: StopReason = reason
        self.tokens = tokens


def estimate_tokens(*texts: str) -> int:
    """A provider-free token estimate (about four characters a token), for calls that report no usage."""
    return sum(len(t) for t in texts) // 4 + 1
