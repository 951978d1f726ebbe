"""The report's figures as PNG bytes (matplotlib, no display needed)."""

from __future__ import annotations

import io
from collections import Counter

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from boundloop.evals.experiment import ScoredRun  # noqa: E402
from boundloop.evals.metrics import support_recall  # noqa: E402
from boundloop.evals.report_model import EvalReport  # noqa: E402
from boundloop.evals.report_tables import STOP_REASONS  # noqa: E402


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=110)
    plt.close(figure)
    return buffer.getvalue()


def _systems(report: EvalReport) -> dict[str, list[ScoredRun]]:
    return {name: system.runs for name, system in report.systems.items() if system.runs}


def recall_at_hop(run: ScoredRun, hop: int) -> float | None:
    """Support recall of the evidence found by hop `hop` (inclusive)."""
    return support_recall({e.doc_id for e in run.record.evidence if e.hop <= hop}, run.gold)


def recall_by_hop(report: EvalReport) -> bytes:
    figure, axes = plt.subplots(figsize=(6, 3.6))
    hops = list(range(1, report.limits.max_hops + 1))
    for name, runs in _systems(report).items():
        means = []
        for hop in hops:
            values = [v for run in runs if (v := recall_at_hop(run, hop)) is not None]
            means.append(sum(values) / len(values) if values else 0.0)
        axes.plot(hops, means, marker="o", label=name)
    same_k = report.systems.get("one_hop_same_k")
    if same_k and same_k.metrics.get("support_recall") is not None:
        axes.axhline(float(same_k.metrics["support_recall"] or 0), color="grey", linestyle="--",
                     label="one hop at the loop's k")
    axes.set(xlabel="hop", ylabel="support recall of the evidence", xticks=hops, ylim=(0, 1.02),
             title="Evidence recall by hop")
    axes.legend(fontsize=8)
    return _png(figure)


def stop_reasons(report: EvalReport) -> bytes:
    systems = _systems(report)
    figure, axes = plt.subplots(figsize=(6, 3.6))
    width = 0.8 / max(len(systems), 1)
    for i, (name, runs) in enumerate(systems.items()):
        counts = Counter(run.record.stop_reason or "finished" for run in runs)
        axes.bar([x + i * width for x in range(len(STOP_REASONS))], [counts[r] for r in STOP_REASONS], width,
                 label=name)
    axes.set_xticks([x + width * (len(systems) - 1) / 2 for x in range(len(STOP_REASONS))], STOP_REASONS)
    axes.set(ylabel="runs", title="What ended each run (finished = no limit reached)")
    axes.legend(fontsize=8)
    return _png(figure)


def latency_histogram(report: EvalReport) -> bytes:
    figure, axes = plt.subplots(figsize=(6, 3.6))
    for name, runs in _systems(report).items():
        axes.hist([run.record.latency_ms for run in runs], bins=30, histtype="step", linewidth=1.5, label=name)
    axes.set(xlabel="latency (ms)", ylabel="runs", title="Latency per run")
    axes.legend(fontsize=8)
    return _png(figure)


def succeeded(run: ScoredRun) -> bool:
    """Answered with the gold answer in it, or (unanswerable) did not answer."""
    if not run.gold.answerable:
        return run.scores.get("abstain_correct") == 1.0
    return run.scores.get("answer_recall") == 1.0


def limit_hit_success(report: EvalReport) -> bytes:
    systems = _systems(report)
    figure, axes = plt.subplots(figsize=(6, 3.6))
    groups = ("limit hit", "no limit hit")
    width = 0.8 / max(len(systems), 1)
    for i, (name, runs) in enumerate(systems.items()):
        split = {"limit hit": [r for r in runs if r.record.stop_reason],
                 "no limit hit": [r for r in runs if not r.record.stop_reason]}
        shares = [sum(map(succeeded, split[g])) / len(split[g]) if split[g] else 0.0 for g in groups]
        bars = axes.bar([x + i * width for x in range(len(groups))], shares, width, label=name)
        for bar, group in zip(bars, groups, strict=True):
            axes.annotate(f"n={len(split[group])}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                          ha="center", va="bottom", fontsize=7)
    axes.set_xticks([x + width * (len(systems) - 1) / 2 for x in range(len(groups))], groups)
    axes.set(ylabel="share of runs that succeeded", ylim=(0, 1.1),
             title="Success of limit-hit runs vs the rest")
    axes.legend(fontsize=8)
    return _png(figure)


FIGURES = {
    "Evidence recall by hop": recall_by_hop,
    "Stop reasons": stop_reasons,
    "Latency histogram": latency_histogram,
    "Success of limit-hit runs vs the rest": limit_hit_success,
}
"""Title -> figure, in report order."""
