"""Summaries over past runs: hops per class, how often each limit binds, and how limit-hit runs fare."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

LIMITS = ("hops", "tokens", "time", "retrieval_calls")


def _group(runs: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(runs)
    answered = sum(r["status"] == "answered" for r in runs)
    return {"runs": n, "answered_share": answered / n if n else 0.0,
            "status": {s: sum(r["status"] == s for r in runs) for s in ("answered", "fallback", "abstained")}}


def summarise(runs: list[dict[str, Any]], kept: int | None = None, interrupted: int = 0) -> dict[str, Any]:
    """Pure: the registry's finished runs (and how many runs it keeps) in, the `boundloop stats` figures out."""
    hops: dict[str, list[int]] = defaultdict(list)
    for r in runs:
        hops[r["query_class"] or "unknown"].append(r["hops"] or 0)
    n = len(runs)
    limit_hit = [r for r in runs if r["stop_reason"]]
    return {
        "runs": n if kept is None else kept,
        "finished": n,
        "interrupted": interrupted,
        "avg_hops_by_class": {k: sum(v) / len(v) for k, v in sorted(hops.items())},
        "limit_hit_share": {lim: (sum(r["stop_reason"] == lim for r in runs) / n if n else 0.0) for lim in LIMITS},
        "limit_hit_runs": _group(limit_hit),
        "other_runs": _group([r for r in runs if not r["stop_reason"]]),
    }
