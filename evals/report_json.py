"""The machine-readable reports: the `--json` summary in the issue's shape, and the full per-run results."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from boundloop.evals.aggregate import METRICS
from boundloop.evals.report_model import EvalReport


def summary(report: EvalReport) -> dict[str, Any]:
    """`{"dataset", "path", "n", "setting", "systems": {name: {metric: value}}}`, the metrics of the issue.

    Metrics that do not apply to a system are left out (e.g. answer scores of the matched-k retrieval baseline).
    """
    return {
        "dataset": report.dataset,
        "path": report.path,
        "n": report.n,
        "setting": report.setting,
        "systems": {
            name: {metric: system.metrics[metric] for metric in METRICS if system.metrics.get(metric) is not None}
            for name, system in report.systems.items()
        },
    }


def full(report: EvalReport) -> dict[str, Any]:
    """The summary plus how the eval ran, every metric per question type, and every run with its scores."""
    return {
        **summary(report),
        "user": report.user,
        "encoder": report.encoder,
        "limits": asdict(report.limits),
        "uploaded": report.uploaded,
        "started_at": report.started_at,
        "seconds": report.seconds,
        "notes": report.notes,
        "metrics": {name: system.metrics for name, system in report.systems.items()},
        "by_type": {name: system.by_type for name, system in report.systems.items()},
        "experiments": {name: system.experiment for name, system in report.systems.items() if system.experiment},
        "runs": {
            name: [
                {"qid": run.qid, "qtype": run.qtype, "scores": run.scores, "extra": run.extra, "notes": run.notes,
                 "error": run.error, "record": run.record.model_dump()}
                for run in system.runs
            ]
            for name, system in report.systems.items() if system.runs
        },
    }
