"""The CI regression gate: small evals of the loop whose metrics must stay within committed bounds.

`python3 -m boundloop.evals.gate` runs every eval of `evals/thresholds.json` (by default 30 HotpotQA dev
questions, pooled, and the bundled demo's questions with their access lists), prints each metric against its bound,
and exits 1 when any bound is broken. The shared data folder is `../shared/data` beside the repository, or
`$BOUNDLOOP_EVAL_DATA`. Thresholds are set a little below measured figures; see evals/README.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from boundloop.evals.aggregate import Metrics
from boundloop.evals.config import EvalConfig
from boundloop.evals.gate_rules import GateEval, failures, load_rules
from boundloop.evals.report_model import EvalReport
from boundloop.evals.suite import run_eval
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.settings import settings

REPO = Path(__file__).resolve().parent.parent
THRESHOLDS = Path(__file__).resolve().parent / "thresholds.json"


def data_dir() -> Path:
    return Path(settings().eval_data or REPO.parent / "shared" / "data")


def gate_metrics(report: EvalReport) -> Metrics:
    """The loop's metrics, plus `access_answered`: answered runs among questions that name forbidden documents."""
    loop = report.systems["loop"]
    access_answered = sum(run.record.status == "answered" for run in loop.runs if run.gold.forbidden_doc_ids)
    return {**loop.metrics, "access_answered": access_answered}


def run_rule(rule: GateEval, data: Path) -> Metrics:
    if rule.dataset == "probes":  # the probe companies of a split (evals/probes/split.json), scored as a whole
        from boundloop.evals.probe_sets import metrics, run_set, split

        return dict(metrics([run_set(name) for name in split(rule.path)]))
    path = (data if rule.root == "data" else REPO) / rule.path
    config = EvalConfig(rule.dataset, str(path), limit=rule.limit, setting=rule.setting, systems=("loop",),
                        limits=BudgetLimits.from_env(), show_progress=False)
    return gate_metrics(run_eval(config))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m boundloop.evals.gate", description=__doc__.splitlines()[0])
    parser.add_argument("--thresholds", type=Path, default=THRESHOLDS)
    parser.add_argument("--data", type=Path, help="the shared data folder (default: ../shared/data)")
    args = parser.parse_args(argv)
    data = args.data or data_dir()
    if not data.is_dir():
        print(f"eval gate: no data folder at {data} (set BOUNDLOOP_EVAL_DATA)", file=sys.stderr)
        return 2
    broken: list[str] = []
    for rule in load_rules(args.thresholds):
        metrics = run_rule(rule, data)
        problems = failures(metrics, rule)
        broken += problems
        print(f"{rule.name}: {'FAIL' if problems else 'ok'}")
        print("  measured: " + ", ".join(f"{k} {v:.4g}" for k, v in metrics.items() if v is not None))
        for name, bound in [*((n, f">= {b}") for n, b in rule.minimum.items()),
                            *((n, f"<= {b}") for n, b in rule.maximum.items())]:
            value = metrics.get(name)
            print(f"  {name:<20} {'missing' if value is None else f'{value:.4g}':>10}  (bound {bound})")
    for problem in broken:
        print(f"eval gate: {problem}", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
