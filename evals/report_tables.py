"""The report's tables, built once and rendered as Markdown or HTML."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from boundloop.evals.aggregate import EXTRA, METRICS
from boundloop.evals.report_model import EvalReport
from boundloop.policies.limits import shown, stop_reasons

TYPE_METRICS = ("n", "answer_recall", "answer_f1", "support_recall", "abstain_accuracy", "avg_hops", "avg_tokens",
                "limit_hit_rate")
STOP_REASONS = ("finished", *stop_reasons())
STATUSES = ("answered", "fallback", "abstained", "error")


@dataclass(frozen=True)
class Table:
    """A titled table of already formatted cells."""

    title: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""


def cell(value: object, metric: str = "") -> str:
    """Numbers as the report shows them: milliseconds and counts whole, tokens to one decimal, rates to three."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if metric.endswith("_ms"):
            return f"{value:.0f}"
        if metric in ("avg_tokens",):
            return f"{value:.1f}"
        return f"{value:.3f}"
    return str(value)


def metrics_table(report: EvalReport) -> Table:
    names = list(report.systems)
    rows = [[metric] + [cell(report.systems[name].metrics.get(metric), metric) for name in names]
            for metric in ("n", *METRICS, *EXTRA[1:])]
    return Table("Metrics", ["metric", *names], rows,
                 "Rates are fractions from 0 to 1; budget_violations is a count of runs; – means the metric does not "
                 "apply (e.g. answer scores of a retrieval-only baseline).")


def type_tables(report: EvalReport) -> list[Table]:
    """One table per question type (the dataset's own label), systems as rows."""
    types = sorted({t for system in report.systems.values() for t in system.by_type})
    tables = []
    for qtype in types:
        rows = [[name] + [cell(system.by_type[qtype].get(m), m) for m in TYPE_METRICS]
                for name, system in report.systems.items() if qtype in system.by_type]
        tables.append(Table(f"Question type: {qtype}", ["system", *TYPE_METRICS], rows))
    return tables


def outcome_table(report: EvalReport) -> Table:
    """How runs ended: status counts and the limit (if any) that closed them."""
    header = ["system", *STATUSES, *(f"stop: {r}" for r in STOP_REASONS)]
    rows = []
    for name, system in report.systems.items():
        if not system.runs:
            continue
        status = Counter(run.record.status for run in system.runs)
        stops = Counter(run.record.stop_reason or "finished" for run in system.runs)
        rows.append([name, *(str(status[s]) for s in STATUSES), *(str(stops[r]) for r in STOP_REASONS)])
    return Table("Outcomes and stop reasons", header, rows,
                 "A run closed by a limit still synthesises the best grounded answer from what it found.")


def problem_table(report: EvalReport) -> Table:
    """Every leak, budget violation and error, run by run (empty when there are none)."""
    rows = [[name, run.qid, note] for name, system in report.systems.items() for run in system.runs
            for note in run.notes]
    return Table("Leaks, budget violations and errors", ["system", "question", "finding"], rows,
                 "None: no run leaked, went over a limit or failed." if not rows else "")


def header_lines(report: EvalReport) -> list[tuple[str, str]]:
    """The run's facts, as label/value pairs."""
    experiments = ", ".join(f"{s.experiment}" for s in report.systems.values() if s.experiment)
    lines = [
        ("dataset", report.dataset), ("file", report.path), ("questions", str(report.n)),
        ("setting", report.setting),
        ("asked as", report.user or "the dataset's own users"),
        ("encoder", report.encoder), ("reasoner", "offline (deterministic); baselines are variants of it"),
        ("limits", ", ".join(str(bound) for bound in shown(report.limits))),
        ("started", f"{report.started_at} ({report.seconds:g} s)"),
        ("LangSmith", f"{'uploaded' if report.uploaded else 'local, not uploaded'}: {experiments}"),
    ]
    return lines + [("note", note) for note in report.notes]
