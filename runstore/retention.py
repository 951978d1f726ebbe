"""How long runs are kept: a deployment setting, applied as runs finish and by `boundloop runs prune`.

The most recent `BOUNDLOOP_RUNS_KEEP` (10,000) runs are kept, none older than `BOUNDLOOP_RUNS_MAX_AGE_DAYS` (30);
runs past either are deleted a small batch at a time, so no step holds a lock for long.
"""

from __future__ import annotations

from dataclasses import dataclass

from boundloop.policies.settings import Settings, settings

PRUNE_BATCH = 50  # runs deleted in one step: each step's transactions stay short
INTERRUPTED_AFTER_S = 3600.0  # an unfinished run of a process this host cannot check is given up after this long


@dataclass(frozen=True)
class Retention:
    """Which runs a store keeps."""

    keep: int = Settings.model_fields["runs_keep"].default
    max_age_days: float = Settings.model_fields["runs_max_age_days"].default

    @property
    def max_age_s(self) -> float:
        return self.max_age_days * 86_400

    @classmethod
    def from_env(cls, configured: Settings | None = None) -> Retention:
        """`BOUNDLOOP_RUNS_KEEP` (a whole number, at least 1) and `BOUNDLOOP_RUNS_MAX_AGE_DAYS` (more than 0)."""
        chosen = configured or settings()
        return cls(keep=chosen.runs_keep, max_age_days=chosen.runs_max_age_days)
