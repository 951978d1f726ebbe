"""The budget governor's policy: pure checks made before every step, search call and model call.

In the spirit of pydantic-ai's `UsageLimits.check_before_request`: given the usage so far and the limits, return
None ("go") or the reason to stop. The clock is read by the caller and passed in as `usage.elapsed_ms`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boundloop.domain.steps import NextStep, is_working
from boundloop.domain.usage import StopReason, Usage
from boundloop.policies.limits import Action, BudgetLimits, bounds, limits_as_usage, used_shares
from boundloop.policies.model_breaker import ModelBreaker

__all__ = ["BudgetExhausted", "BudgetLimits", "CallBudget", "call_budget", "check_before_retrieval_call",
           "check_before_step", "estimate_tokens", "first_reached", "limits_as_usage", "remaining_seconds",
           "spent_limit", "used_shares"]


def first_reached(usage: Usage, limits: BudgetLimits, before: Action) -> StopReason | None:
    """The one generic check: the first limit (in the order declared) that forbids `before` and is reached."""
    return next((bound.limit.stop_reason for bound in bounds(limits)
                 if before in bound.limit.forbids and bound.reached(usage)), None)


def check_before_step(step: NextStep, usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """None if `step` may run; otherwise the limit that forbids it. Closing steps are never refused here."""
    if not is_working(step):
        return None
    return first_reached(usage, limits, "retrieve" if step == "retrieve" else "step")


def spent_limit(usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """A limit the run has used up (its time, its tokens), whatever step comes next: the run is then incomplete.

    The closing steps still run; this only records that the deadline or the tokens ran out on the way.
    """
    return first_reached(usage, limits, "step")


def check_before_retrieval_call(usage: Usage, limits: BudgetLimits) -> StopReason | None:
    """None if one more retrieval call may start now; checked before each call inside a hop."""
    return first_reached(usage, limits, "search")


def remaining_seconds(usage: Usage, limits: BudgetLimits) -> float:
    """Time left before the deadline (never negative): every call in flight gets this as its timeout."""
    return max(0.0, limits.max_seconds - usage.elapsed_ms / 1000)


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
