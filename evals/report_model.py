"""What an eval produces: per system, the scored runs and their aggregates; plus what was run and how."""

from __future__ import annotations

from dataclasses import dataclass, field

from boundloop.evals.aggregate import Metrics
from boundloop.evals.experiment import ScoredRun
from boundloop.policies.budget import BudgetLimits


@dataclass
class SystemResult:
    """One system's metrics overall and per question type, and the runs they come from."""

    name: str
    metrics: Metrics
    by_type: dict[str, Metrics]
    runs: list[ScoredRun] = field(default_factory=list)
    experiment: str = ""
    """The LangSmith experiment name (empty for systems derived from another's runs)."""


@dataclass
class EvalReport:
    """Everything the Markdown, HTML and JSON reports show."""

    dataset: str
    path: str
    n: int
    setting: str
    limits: BudgetLimits
    encoder: str
    systems: dict[str, SystemResult]
    user: str | None = None
    uploaded: bool = False
    started_at: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[tuple[str, str, str]]:
        """(system, qid, error) for every run whose target raised."""
        return [(name, run.qid, run.error) for name, system in self.systems.items() for run in system.runs
                if run.error]
