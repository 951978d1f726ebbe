"""The run context: immutable per-run facts the reasoning steps cannot read from state or change."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from graph.reasoner import Reasoner
from policies.budget import BudgetLimits, Usage
from policies.entitlements import Principal
from retrieval.search import EntitledSearcher


@dataclass(frozen=True)
class RunContext:
    """Who the run acts for, what it may spend, and the trimmed backend and reasoner it uses."""

    principal: Principal
    searcher: EntitledSearcher
    reasoner: Reasoner
    limits: BudgetLimits = field(default_factory=BudgetLimits)
    clock: Callable[[], float] = time.monotonic
    started_at: float = field(default_factory=time.monotonic)

    def elapsed(self) -> float:
        return self.clock() - self.started_at

    def usage(self, state: dict, hops: int = 0, tokens: int = 0, retrieval_calls: int = 0) -> Usage:
        """Usage so far from the state's counters, plus deltas a node is about to add."""
        return Usage(
            hops=state.get("hops", 0) + hops,
            tokens=state.get("tokens", 0) + tokens,
            retrieval_calls=state.get("retrieval_calls", 0) + retrieval_calls,
            elapsed_s=self.elapsed(),
        )
