"""Prometheus metrics: runs by status and stop reason, latency histograms, and budget use.

With several uvicorn workers, `boundloop serve` sets `PROMETHEUS_MULTIPROC_DIR` before any worker starts, so every
worker writes its samples there and `/metrics` from any worker reports the sum over all of them.
"""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from boundloop.domain.result import RunResult
from boundloop.policies.budget import BudgetLimits, used_shares
from boundloop.policies.settings import settings

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0)
RATIO_BUCKETS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

RUNS = Counter("boundloop_runs", "Finished runs by outcome status and the limit that closed them (none if complete).",
               ["status", "stop_reason"])
RUN_FAILURES = Counter("boundloop_run_failures", "Runs that ended in an internal error.", ["endpoint"])
RUN_SECONDS = Histogram("boundloop_run_duration_seconds", "Wall time of one run, end to end.", ["endpoint"],
                        buckets=LATENCY_BUCKETS)
HTTP_SECONDS = Histogram("boundloop_http_request_duration_seconds", "HTTP request latency by route and status.",
                         ["method", "route", "status"], buckets=LATENCY_BUCKETS)
BUDGET_USED = Histogram("boundloop_budget_used_ratio", "Share of each per-run limit a run used.", ["resource"],
                        buckets=RATIO_BUCKETS)


def record_run(result: RunResult, seconds: float, endpoint: str, limits: BudgetLimits) -> None:
    """Count one finished run and observe its latency and budget use."""
    RUNS.labels(status=result.status, stop_reason=result.stop_reason or "none").inc()
    RUN_SECONDS.labels(endpoint=endpoint).observe(seconds)
    for resource, share in used_shares(result.usage, limits).items():
        BUDGET_USED.labels(resource=resource).observe(share)


def record_failure(endpoint: str) -> None:
    RUN_FAILURES.labels(endpoint=endpoint).inc()


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    HTTP_SECONDS.labels(method=method, route=route, status=str(status)).observe(seconds)


def render() -> tuple[bytes, str]:
    """The exposition text, summed over all worker processes when running multi-process."""
    if settings().prometheus_multiproc_dir:
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
