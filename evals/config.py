"""What one eval run is asked to do."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from boundloop.evals.corpus import Setting
from boundloop.evals.systems import SYSTEMS, SystemName
from boundloop.policies.budget import BudgetLimits

DEFAULT_WORKERS = 2
"""Questions in flight at once: the machines this runs on have two cores."""


@dataclass(frozen=True)
class EvalConfig:
    """A dataset file, how to ask it, which systems to compare and where the built index is cached."""

    dataset: str
    path: str
    limit: int | None = None
    setting: Setting = "pooled"
    user: str | None = None
    upload: bool = False
    workers: int = DEFAULT_WORKERS
    systems: tuple[SystemName, ...] = SYSTEMS
    limits: BudgetLimits = field(default_factory=BudgetLimits)
    cache_root: Path | None = None
    show_progress: bool = True
