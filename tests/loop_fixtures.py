"""Builders for loop tests: a runner over the small test corpus, scripted reasoners and a controllable clock."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from boundloop.graph.reasoner import StepResult
from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.runstore.sqlite import SqliteRunStore


def make_runner(index, encoder, resolver, tmp_path=None, reasoner=None, **limits) -> LoopRunner:
    store = SqliteRunStore(tmp_path / "runs.db") if tmp_path is not None else None
    return LoopRunner(resolver=resolver, backend=index, encoder=encoder, reasoner=reasoner or OfflineReasoner(),
                      limits=BudgetLimits(**limits), store=store)


@dataclass
class Clock:
    """A clock tests can move forward."""

    now: float = field(default_factory=time.monotonic)

    def __call__(self) -> float:
        return self.now


class CostlyEvaluate(OfflineReasoner):
    """The offline reasoner, but evaluate charges tokens and moves a clock, to trip token and time limits."""

    def __init__(self, tokens: int = 0, clock: Clock | None = None, seconds: float = 0.0) -> None:
        super().__init__()
        self.tokens, self.clock, self.seconds = tokens, clock, seconds

    def evaluate(self, *args, **kwargs):
        result = super().evaluate(*args, **kwargs)
        if self.clock is not None:
            self.clock.now += self.seconds
        return StepResult(result.value, tokens=self.tokens)


class AlwaysRefine(OfflineReasoner):
    """Keeps asking for one more hop, to trip the hop limit."""

    def refine(self, question, understanding, subqueries, evidence, assessment, hop):
        from boundloop.domain.models import Refinement, SubQuery

        query = SubQuery(id=f"again{hop}", text=f"{question} {hop}", mode="hybrid", k=2)
        return StepResult(Refinement(action="retrieve", subqueries=[query], reason="always one more"))
