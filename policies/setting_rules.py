"""What a numeric or enumerated setting allows: the rules `policies.settings` attaches to its fields.

A rule turns a variable's text into its value (`parse`, a ValueError for text it refuses) and says in a few words
what it allows (`allowed`), so a bad value is one line naming the variable, the value and what is allowed:
`BOUNDLOOP_MAX_HOPS='0' must be a whole number, at least 1`.
"""

from __future__ import annotations

import ipaddress
import math
import re
from dataclasses import dataclass
from typing import Any, Protocol

from boundloop.policies.errors import BoundloopError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class SettingError(BoundloopError):
    """An environment setting holds a value it does not allow."""


class Rule(Protocol):
    """How one variable's text becomes its value; `parse` raises ValueError for text outside `allowed`."""

    @property
    def allowed(self) -> str: ...

    def parse(self, text: str) -> Any: ...


@dataclass(frozen=True)
class Whole:
    """A whole number of at least `minimum`."""

    minimum: int = 1

    @property
    def allowed(self) -> str:
        return f"a whole number, at least {self.minimum}"

    def parse(self, text: str) -> int:
        value = int(text)
        if value < self.minimum:
            raise ValueError(text)
        return value


@dataclass(frozen=True)
class Number:
    """A finite number above `above` (exclusive) or from `minimum` (inclusive), up to `maximum`."""

    above: float | None = 0.0
    minimum: float | None = None
    maximum: float | None = None

    @property
    def allowed(self) -> str:
        low = f"more than {self.above:g}" if self.above is not None else f"at least {self.minimum:g}"
        return f"a number {low}" + (f" and at most {self.maximum:g}" if self.maximum is not None else "")

    def parse(self, text: str) -> float:
        value = float(text)
        if not math.isfinite(value) or (self.above is not None and value <= self.above) \
                or (self.minimum is not None and value < self.minimum) \
                or (self.maximum is not None and value > self.maximum):
            raise ValueError(text)
        return value


@dataclass(frozen=True)
class OneOf:
    """One word of `choices` (any case)."""

    choices: tuple[str, ...]

    @property
    def allowed(self) -> str:
        return "one of " + ", ".join(self.choices)

    def parse(self, text: str) -> str:
        if text.lower() not in self.choices:
            raise ValueError(text)
        return text.lower()


@dataclass(frozen=True)
class Flag:
    """On or off."""

    on: tuple[str, ...] = ("1", "true", "yes", "on")
    off: tuple[str, ...] = ("0", "false", "no", "off")

    @property
    def allowed(self) -> str:
        return f"on ({', '.join(self.on)}) or off ({', '.join(self.off)})"

    def parse(self, text: str) -> bool:
        if text.lower() not in self.on + self.off:
            raise ValueError(text)
        return text.lower() in self.on


@dataclass(frozen=True)
class Spec:
    """A plain name (`offline`), or `provider:name` for one of `providers`."""

    plain: tuple[str, ...]
    providers: tuple[str, ...] = ("openai", "azure_openai")

    @property
    def allowed(self) -> str:
        return "one of " + ", ".join([*self.plain, "openai:<model>", "azure_openai:<deployment>"])

    def parse(self, text: str) -> str:
        provider, colon, name = text.partition(":")
        if text not in self.plain and not (colon and provider in self.providers and name.strip()):
            raise ValueError(text)
        return text


_DURATION = re.compile(r"(\d+)\s*([smhd]?)")
_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Duration:
    """Whole seconds, or a number with s, m, h or d; more than zero."""

    @property
    def allowed(self) -> str:
        return "a duration such as 3600, 90m, 24h or 1d"

    def parse(self, text: str) -> int:
        match = _DURATION.fullmatch(text.lower())
        if not match or int(match.group(1)) == 0:
            raise ValueError(text)
        return int(match.group(1)) * _SECONDS[match.group(2)]


_RATE = re.compile(r"(\d+)\s*/\s*(\d*)\s*([a-z]+?)s?")
_RATE_UNITS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600}


@dataclass(frozen=True)
class RateText:
    """Requests per period, `(requests, seconds)`; `off` (or 0) is None: no limit."""

    @property
    def allowed(self) -> str:
        return "a rate such as 120/minute, 10/s, 1000/hour or 30/10s, or off"

    def parse(self, text: str) -> tuple[int, int] | None:
        if text.lower() in ("off", "0", "none", "false"):
            return None
        match = _RATE.fullmatch(text.lower())
        if not match or match.group(3) not in _RATE_UNITS or int(match.group(1)) == 0 \
                or int(match.group(2) or 1) == 0:
            raise ValueError(text)
        return int(match.group(1)), int(match.group(2) or 1) * _RATE_UNITS[match.group(3)]


@dataclass(frozen=True)
class Networks:
    """Comma-separated IP addresses or CIDR ranges (`10.0.0.0/8`, `::1`); none when blank."""

    @property
    def allowed(self) -> str:
        return "comma-separated IP addresses or CIDR ranges, such as 10.0.0.5,192.168.0.0/16,::1"

    def parse(self, text: str) -> tuple[Network, ...]:
        parts = [part.strip() for part in text.split(",")]
        if not all(parts):
            raise ValueError(text)
        return tuple(ipaddress.ip_network(part, strict=False) for part in parts)
