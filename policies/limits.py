"""The hard limits of a run, declared once: each is a field of `BudgetLimits`, and its `Limit` says the rest.

A field's `Limit` names the `Usage` field it bounds, the stop reason it gives, what it forbids once reached, and the
words and units it is shown with; its value comes from the setting of the same name (`policies.settings`: the field
`max_hops` is `BOUNDLOOP_MAX_HOPS`). The checks (`policies.budget`), the shares in the
metrics, the trace's `limits`, `boundloop stats`, the eval gate's budget check, the CLI tables and the page's words
and bars are all derived from these fields: a new limit is one field here, one in `Usage`, and the node that spends
it, plus its setting (CONTRIBUTING.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args

from boundloop.domain.usage import StopReason, Usage
from boundloop.policies.settings import Settings, env_name, settings

Action = Literal["step", "retrieve", "search"]
"""What a reached limit forbids: any working step, a retrieve step (one more hop), one more search call in a hop."""
LIMIT = "limit"
"""The key of a `BudgetLimits` field's `Limit` in its metadata."""


@dataclass(frozen=True)
class Limit:
    """One hard limit: the usage it bounds, the reason it stops a run for, and how it is set, checked and shown."""

    usage: str
    """The `Usage` field it bounds."""
    stop_reason: StopReason
    forbids: frozenset[Action]
    label: str
    """Its name on the page's bars: 'Searches'."""
    column: str
    """Its column in `boundloop trace`: 'calls'."""
    words: tuple[str, str]
    """What one and many of its usage are called: ('search', 'searches'), or a unit: ('ms', 'ms')."""
    named: str
    """The limit in a sentence: 'the search limit'."""
    unit: str = ""
    """The unit of its value as set ('s'); its usage is counted in `per_unit` of those."""
    per_unit: int = 1
    overrun: float = 0.0
    """How far past it (in its unit) a run may end: the closing path still runs once a deadline passes."""


def declare(default: float, **declaration: Any) -> Any:
    """A `BudgetLimits` field: its default, and its `Limit` in the field's metadata."""
    return field(default=default, metadata={LIMIT: Limit(**declaration)})


@dataclass(frozen=True)
class BudgetLimits:
    """Hard limits of one run. Deployment settings only: never from the question, a request or the model.

    Declared in the order they are checked: a run that has reached two stops for the first.
    """

    max_seconds: float = declare(
        18.0, usage="elapsed_ms", stop_reason="time",
        forbids=frozenset({"step", "retrieve", "search"}), label="Time", column="elapsed", words=("ms", "ms"),
        named="the time limit", unit="s", per_unit=1000, overrun=0.5)
    max_tokens: int = declare(
        45_000, usage="tokens", stop_reason="tokens",
        forbids=frozenset({"step", "retrieve"}), label="Tokens", column="tokens", words=("token", "tokens"),
        named="the token limit")
    max_hops: int = declare(
        3, usage="hops", stop_reason="hops",
        forbids=frozenset({"retrieve"}), label="Hops", column="hops", words=("hop", "hops"), named="the hop limit")
    max_retrieval_calls: int = declare(
        6, usage="retrieval_calls", stop_reason="retrieval_calls",
        forbids=frozenset({"retrieve", "search"}), label="Searches", column="calls", words=("search", "searches"),
        named="the search limit")
    max_documents: int = declare(
        40, usage="documents", stop_reason="documents",
        forbids=frozenset({"retrieve", "search"}), label="Documents", column="docs",
        words=("document", "documents"), named="the document limit")

    @classmethod
    def from_env(cls, configured: Settings | None = None) -> BudgetLimits:
        """Each limit from its setting (`BOUNDLOOP_MAX_HOPS`, `_MAX_TOKENS`, ...; `policies.settings`)."""
        chosen = configured or settings()
        return cls(**{limit.name: getattr(chosen, limit.name) for limit in fields(cls)})


@dataclass(frozen=True)
class Bound:
    """One limit in force: its declaration and its value, read against a run's usage."""

    name: str
    """The `BudgetLimits` field: 'max_hops'."""
    limit: Limit
    value: float

    @property
    def env(self) -> str:
        """The variable that sets it: `BOUNDLOOP_MAX_HOPS`."""
        return env_name(self.name)

    @property
    def reach(self) -> float:
        """The usage that reaches it, in the usage's own unit (milliseconds for the time limit)."""
        return self.value * self.limit.per_unit

    def used(self, usage: Usage) -> int:
        return int(getattr(usage, self.limit.usage))

    def reached(self, usage: Usage) -> bool:
        return self.used(usage) >= self.reach

    def share(self, usage: Usage) -> float:
        """The share of it a run used."""
        return self.used(usage) / self.reach

    def __str__(self) -> str:
        """'3 hops', '18 s'."""
        return f"{self.value:g} {self.limit.unit or self.limit.words[1]}"

    def passed(self, used: float) -> str | None:
        """How `used` went past it, overrun allowed ('hops 4 > 3'), or None if it did not."""
        if used <= (self.value + self.limit.overrun) * self.limit.per_unit:
            return None
        if self.limit.unit:
            return f"{used:.0f} {self.limit.words[1]} > {self.value:g} {self.limit.unit} + {self.limit.overrun:g} " \
                   f"{self.limit.unit}"
        return f"{self.limit.words[1]} {used:.0f} > {self.value:g}"


def bounds(limits: BudgetLimits) -> tuple[Bound, ...]:
    """Every limit in force, in the order they are checked."""
    return tuple(Bound(f.name, f.metadata[LIMIT], getattr(limits, f.name)) for f in fields(limits))


def shown(limits: BudgetLimits) -> tuple[Bound, ...]:
    """Every limit in force, in the order of `Usage`'s fields: how the CLI, the page and the reports list them."""
    order = list(Usage.model_fields)
    return tuple(sorted(bounds(limits), key=lambda bound: order.index(bound.limit.usage)))


def limits_as_usage(limits: BudgetLimits) -> Usage:
    """The limits with the names of `Usage`, so that each can be read against what a run used."""
    return Usage(**{bound.limit.usage: int(bound.reach) for bound in bounds(limits)})


def used_shares(usage: Usage, limits: BudgetLimits) -> dict[StopReason, float]:
    """The share of each limit a run used, by the stop reason each limit gives."""
    return {bound.limit.stop_reason: bound.share(usage) for bound in shown(limits)}


def declared() -> tuple[Limit, ...]:
    """Every limit's declaration, in the order of `Usage`'s fields: what the CLI and the page name them by."""
    return tuple(bound.limit for bound in shown(BudgetLimits()))


def stop_reasons() -> tuple[StopReason, ...]:
    """Every reason a limit can close a run for, in the order of `Usage`'s fields."""
    return tuple(limit.stop_reason for limit in declared())


def _declared_once() -> None:
    """Each field bounds one `Usage` field once, with its own stop reason, and is the setting of its name.

    Checked on import, so a limit declared in one place and forgotten in another fails at once.
    """
    declared = [f.metadata[LIMIT] for f in fields(BudgetLimits)]
    if sorted(limit.usage for limit in declared) != sorted(Usage.model_fields) \
            or sorted(limit.stop_reason for limit in declared) != sorted(get_args(StopReason)):
        raise TypeError("BudgetLimits must bound each Usage field once, with each StopReason once")
    for f in fields(BudgetLimits):
        if f.name not in Settings.model_fields or Settings.model_fields[f.name].default != f.default:
            raise TypeError(f"BudgetLimits.{f.name} needs a setting of that name and default (policies.setting_fields)")


_declared_once()
