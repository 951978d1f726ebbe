"""Hard limits over an adversarial corpus: does every run end within its time limit + 0.25 s?

Run: python3 benchmarks/bench_deadline.py [--limits 0.3,3,18] [--keep DIR]

The corpus (made here, in a temporary folder): one 10 MB text without punctuation, 1,000 near-duplicate passages,
a 5,000-row table and 3,000 nested headings. It is ingested once; then each question is asked through the loop at
each time limit, and the run's own elapsed time (and the wall time around it) is compared with the limit. The small
limit makes the deadline fall inside a step.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.loop.workspace import Workspace  # noqa: E402
from boundloop.policies.budget import BudgetLimits  # noqa: E402
from boundloop.retrieval.ingest import ingest  # noqa: E402
from boundloop.retrieval.loaders import load_folder  # noqa: E402
from boundloop.retrieval.sqlite_index import SqliteIndex  # noqa: E402

QUESTIONS = [
    "How many leave days does the office manager approve?",
    "What is the allowance for Role 7 in Office 1207?",
    "Which section covers item leave days approval?",
    "What is the annual leave allowance for employees in office 3?",
    "Compare the travel budget and the expense rate for the staff office",
]


def make_corpus(folder: Path) -> None:
    random.seed(7)
    words = "the staff office policy leave days approval manager lisbon budget claim travel expense rate hours".split()
    folder.mkdir(parents=True)
    (folder / "wall.txt").write_text(" ".join(random.choice(words) for _ in range(1_700_000)))
    (folder / "dups.md").write_text("\n\n".join(
        f"The annual leave allowance for employees in office {i % 7} is {20 + i % 5} working days and approval "
        f"goes to the line manager of office {i % 7}." for i in range(1000)))
    rows = [f"| Office {i} | Role {i % 40} | {i % 90} days | Manager {i % 13} |" for i in range(5000)]
    header = "# Allowances\n\n| Office | Role | Allowance | Approver |\n| --- | --- | --- | --- |\n"
    (folder / "table.md").write_text(header + "\n".join(rows))
    (folder / "deep.md").write_text("\n".join(f"{'#' * (1 + i % 6)} Section {i} leave policy\n\n{'- ' * 40} item "
                                              "leave days approval" for i in range(3000)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", default="0.3,3,18")
    parser.add_argument("--keep", type=Path, help="build (or reuse) the index in this folder")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="deadline-"))
    (root / "users.yaml").write_text("users:\n  ann: {groups: [staff]}\n")
    report: dict[str, object] = {}
    if not (root / "index").exists():
        make_corpus(root / "docs")
        started = time.perf_counter()
        index = SqliteIndex(root / "index", create=True)
        workspace = Workspace.open(str(root / "index"), str(root / "users.yaml"))
        ingest(index, workspace.encoder, load_folder(root / "docs"), default_acl="staff", show_progress=True)
        index.close()
        report["ingest_s"] = round(time.perf_counter() - started, 1)
    os.environ["BOUNDLOOP_STATE_DIR"] = str(root / "state")
    for limit in (float(x) for x in args.limits.split(",")):
        workspace = Workspace.open(str(root / "index"), str(root / "users.yaml"))
        runner = workspace.runner
        runner.limits = BudgetLimits(max_seconds=limit)
        over, walls, reasons = [], [], []
        for question in QUESTIONS:
            started = time.perf_counter()
            result = runner.ask(question, "ann")
            wall = time.perf_counter() - started
            walls.append(wall)
            over.append(result.usage.elapsed_ms / 1000 - limit)
            reasons.append(result.stop_reason or result.status)
        report[f"limit_{limit:g}s"] = {"max_elapsed_over_limit_s": round(max(over), 3),
                                       "max_wall_s": round(max(walls), 3), "median_wall_s": round(
                                           statistics.median(walls), 3), "outcomes": reasons}
        workspace.backend.close()
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
