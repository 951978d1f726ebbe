"""Aggregates of per-run scores: the report's metrics for a system, overall and per question type."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np

from boundloop.evals.metrics import Scores

METRICS = (
    "answer_em", "answer_f1", "answer_recall", "support_recall", "support_precision", "citation_precision",
    "grounding_rate", "abstain_accuracy", "leak_rate", "budget_violations", "avg_hops", "avg_tokens",
    "avg_retrieval_calls", "limit_hit_rate", "p50_ms", "p95_ms",
)
"""The issue's metric names, in report order (rates are fractions 0..1; budget_violations is a count)."""

EXTRA = ("n", "answered_rate", "avg_evidence_chunks")

_MEANS = {
    "answer_em": "answer_em", "answer_f1": "answer_f1", "answer_recall": "answer_recall",
    "support_recall": "support_recall", "support_precision": "support_precision",
    "citation_precision": "citation_precision", "abstain_accuracy": "abstain_correct", "leak_rate": "leak",
    "avg_hops": "hops", "avg_tokens": "tokens", "avg_retrieval_calls": "retrieval_calls",
    "limit_hit_rate": "limit_hit", "answered_rate": "answered", "avg_evidence_chunks": "evidence_chunks",
}

Metrics = dict[str, float | int | None]


def mean(values: Iterable[float | None]) -> float | None:
    """Mean of the values that apply; None when none does."""
    present = [v for v in values if v is not None]
    return float(np.mean(present)) if present else None


def percentile(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None


def aggregate(rows: Sequence[Scores]) -> Metrics:
    """One system's metrics over `rows`; metrics that no row can score are None."""
    metrics: Metrics = {"n": len(rows)}
    for name, key in _MEANS.items():
        metrics[name] = mean(row.get(key) for row in rows)
    drafted = sum(row.get("claims_drafted") or 0.0 for row in rows)
    kept = sum(row.get("claims_kept") or 0.0 for row in rows)
    metrics["grounding_rate"] = kept / drafted if drafted else None
    metrics["budget_violations"] = int(sum(row.get("budget_violation") or 0.0 for row in rows))
    latencies = [v for row in rows if (v := row.get("latency_ms")) is not None]
    metrics["p50_ms"] = percentile(latencies, 50)
    metrics["p95_ms"] = percentile(latencies, 95)
    return {name: metrics[name] for name in EXTRA[:1] + METRICS + EXTRA[1:]}


def by_group(rows: Sequence[Scores], groups: Sequence[str]) -> dict[str, Metrics]:
    """`aggregate` per group label (e.g. the dataset's question type), labels sorted."""
    grouped: dict[str, list[Scores]] = defaultdict(list)
    for row, group in zip(rows, groups, strict=True):
        grouped[group].append(row)
    return {group: aggregate(grouped[group]) for group in sorted(grouped)}
