"""What a node hands back: its partial state update, what it spent, and the decision and reason its span records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boundloop.domain.usage import StopReason, Usage


@dataclass
class StepUpdate:
    """A node's result; `spent` goes to the run's ledger, never into the state.

    `stopped` is the limit that stopped the step or cut it short (a closing step fitted to what was left): the only
    way a node reports a stop. `graph.spans.traced` makes it the run's `stop_reason` unless one was recorded before,
    and the run is marked incomplete.
    """

    values: dict[str, Any] = field(default_factory=dict)
    decision: str = ""
    reason: str = ""
    spent: Usage = field(default_factory=Usage)
    stopped: StopReason | None = None
