"""The regression gate's rules: which evals to run and the bounds their metrics must stay within."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from boundloop.evals.aggregate import Metrics
from boundloop.evals.corpus import Setting
from boundloop.evals.datasets import DatasetError

Root = Literal["data", "repo"]


@dataclass(frozen=True)
class GateEval:
    """One small eval of the loop and the bounds its metrics must respect."""

    name: str
    dataset: str
    path: str
    root: Root = "data"
    """Whether `path` is under the shared data folder or the repository."""
    limit: int | None = None
    setting: Setting = "pooled"
    minimum: dict[str, float] = field(default_factory=dict)
    maximum: dict[str, float] = field(default_factory=dict)


def load_rules(path: Path) -> list[GateEval]:
    """The gate's evals from a thresholds file: {"evals": [{"name", "dataset", "path", "min", "max", ...}]}."""
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8"))
        return [
            GateEval(name=e["name"], dataset=e["dataset"], path=e["path"], root=e.get("root", "data"),
                     limit=e.get("limit"), setting=e.get("setting", "pooled"), minimum=dict(e.get("min", {})),
                     maximum=dict(e.get("max", {})))
            for e in raw["evals"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DatasetError(f"{path}: not a readable thresholds file: {exc!r}") from None


def failures(metrics: Metrics, rule: GateEval) -> list[str]:
    """Every bound `metrics` breaks; a metric the eval did not produce breaks its bound too."""
    found = []
    for name, bound in rule.minimum.items():
        value = metrics.get(name)
        if value is None or value < bound:
            found.append(f"{rule.name}: {name} = {_shown(value)}, below the minimum {bound}")
    for name, bound in rule.maximum.items():
        value = metrics.get(name)
        if value is None or value > bound:
            found.append(f"{rule.name}: {name} = {_shown(value)}, above the maximum {bound}")
    return found


def _shown(value: float | int | None) -> str:
    return "missing" if value is None else f"{value:.4g}"
