"""`boundloop eval`: the loop and its baselines over a public dataset, scored, as LangSmith experiments."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from boundloop.evals.config import DEFAULT_WORKERS, EvalConfig
from boundloop.evals.corpus import SETTINGS
from boundloop.evals.datasets import DatasetError
from boundloop.evals.sources import DATASET_NAMES
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.errors import BoundloopError

if TYPE_CHECKING:
    from boundloop.evals.report_model import EvalReport


PROBES = "probes"
"""The probe companies (evals/probes/): `boundloop eval probes unseen` (or tune, all, or sets such as c,e)."""


def add_eval(p: argparse.ArgumentParser) -> None:
    p.add_argument("dataset", choices=(*DATASET_NAMES, PROBES), help="dataset format")
    p.add_argument("path", help="the dataset file (or folder for contoso, sec10q and demo; for probes a split: "
                                "unseen, tune, all, or set names such as c,e)")
    p.add_argument("--limit", type=int, help="only the first N questions")
    p.add_argument("--setting", choices=SETTINGS, default="pooled",
                   help="pooled: one corpus of every question's passages; distractor: each question sees only "
                        "its own passages (enforced through the entitlement filter)")
    p.add_argument("--user", help="ask as this user (contoso: employee or hr)")
    p.add_argument("--upload", action="store_true", help="send the experiments to LangSmith (needs LANGSMITH_API_KEY)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")
    p.add_argument("--out", metavar="DIR", help="report folder (default: eval-results/<dataset>-<timestamp>/)")
    p.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="questions in flight at once")
    p.add_argument("--cache-dir", metavar="DIR", help="where built indexes are kept (default: the boundloop cache)")
    p.add_argument("--verbose", action="store_true",
                   help="probes: print each question not as expected, for tune sets only (the unseen half is never "
                        "shown)")
    p.set_defaults(run=run_eval_command)


def run_probes(args: argparse.Namespace) -> int:
    """Every question of the probe sets of a split, as its user; failures shown for tune sets only."""
    from boundloop.evals.probe_sets import passage_answer, readable, run_set, split, totals

    try:
        names = split(args.path)
    except ValueError as exc:
        raise BoundloopError(str(exc)) from None
    shown = [name for name in names if readable(name)] if args.verbose else []

    def missed(name: str) -> Callable[[dict, dict], None] | None:
        def show(question: dict, result: dict) -> None:
            print(f"[{name}] {question['user']}: {question['question']} -> {result['status']} "
                  f"{result.get('short_answer')!r}{' by a passage' if passage_answer(result) else ''} "
                  f"(expected {question['expect']} {question.get('short')})", file=sys.stderr)
        return show if name in shown else None

    reports = [run_set(name, missed(name)) for name in names]
    report = {r.name: r.as_json() for r in reports} | {"all": totals(reports)}
    folder = Path(args.out) if args.out else Path("eval-results") / f"probes-{args.path.replace(',', '-')}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        for name, row in report.items():
            print(f"{name:>4}  {row['as_expected']:>4} / {row['questions']:<4} leaks {row['leaks']}  planted "
                  f"{row['planted_shipped']}  passages {row['passages']} (hits {row['passage_hits']})  "
                  + ", ".join(f"{k} {v}" for k, v in row["by_kind"].items()))
    print(f"report written to {folder}/results.json", file=sys.stderr)
    return 1 if report["all"]["leaks"] or report["all"]["planted_shipped"] else 0


def run_eval_command(args: argparse.Namespace) -> int:
    if args.dataset == PROBES:
        return run_probes(args)
    from boundloop.evals.report_files import write_reports
    from boundloop.evals.report_json import summary
    from boundloop.evals.suite import run_eval

    if args.limit is not None and args.limit < 1:
        raise BoundloopError("--limit must be a positive number")
    if args.workers < 1:
        raise BoundloopError("--workers must be at least 1")
    config = EvalConfig(
        dataset=args.dataset, path=args.path, limit=args.limit, setting=args.setting, user=args.user,
        upload=args.upload, workers=args.workers, limits=BudgetLimits.from_env(),
        cache_root=Path(args.cache_dir) if args.cache_dir else None,
    )
    try:
        report = run_eval(config)
    except DatasetError as exc:
        raise BoundloopError(str(exc)) from None
    folder = write_reports(report, Path(args.out) if args.out else None)
    print(f"reports written to {folder}/ (report.md, report.html, results.json)", file=sys.stderr)
    for system, qid, error in report.errors[:5]:
        print(f"{system} failed on {qid}: {error}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary(report), indent=2))
    else:
        _print_summary(report)
    return 1 if report.errors else 0


def _print_summary(report: EvalReport) -> None:
    from boundloop.evals.report_markdown import table
    from boundloop.evals.report_tables import metrics_table

    print(table(metrics_table(report)))
