"""Summaries over past runs: hops per class, how often each limit binds, how limit-hit runs fare, what users thought."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from boundloop.policies.limits import stop_reasons


def _feedback(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """How many runs were rated, and the share rated helpful (null when none was rated)."""
    scores = [r["feedback_score"] for r in runs if r.get("feedback_score") is not None]
    return {"rated": len(scores), "positive_share": sum(s > 0 for s in scores) / len(scores) if scores else None}


def _group(runs: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(runs)
    answered = sum(r["status"] == "answered" for r in runs)
    return {"runs": n, "answered_share": answered / n if n else 0.0,
            "status": {s: sum(r["status"] == s for r in runs) for s in ("answered", "fallback", "abstained")},
            **_feedback(runs)}


def summarise(runs: list[dict[str, Any]], kept: int | None = None, interrupted: int = 0) -> dict[str, Any]:
    """Pure: the registry's finished runs (and how many runs it keeps) in, the `boundloop stats` figures out."""
    by_class: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in runs:
        by_class[r["query_class"] or "unknown"].append(r)
    n = len(runs)
    limit_hit = [r for r in runs if r["stop_reason"]]
    return {
        "runs": n if kept is None else kept,
        "finished": n,
        "interrupted": interrupted,
        "avg_hops_by_class": {k: sum(r["usage"].get("hops", 0) for r in v) / len(v)
                              for k, v in sorted(by_class.items())},
        "limit_hit_share": {reason: (sum(r["stop_reason"] == reason for r in runs) / n if n else 0.0)
                            for reason in stop_reasons()},
        "limit_hit_runs": _group(limit_hit),
        "other_runs": _group([r for r in runs if not r["stop_reason"]]),
        "feedback": _feedback(runs),
        "feedback_by_class": {k: _feedback(v) for k, v in sorted(by_class.items())},
    }
