"""Companies the reader was not written for: how many of each probe set's questions come out as they should.

Run: python3 benchmarks/enterprise_probes.py [--split tune|unseen|all] [--sets a,b,c] [--verbose]

The rules are in `boundloop/evals/probe_sets.py`. `--verbose` prints the questions not as expected, for the
`tune` sets only: the `unseen` sets are measured, never read (issue 32's method). Exits 1 on any leak.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.evals.probe_sets import run_set, split, totals  # noqa: E402


def _show(question: dict[str, Any], result: dict[str, Any]) -> None:
    print(f"{question['user']}: {question['question']} -> {result['status']} {result.get('short_answer')!r} "
          f"(expected {question['expect']} {question.get('short')})", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="all", choices=("tune", "unseen", "all"))
    parser.add_argument("--sets", help="comma-separated set names instead of a split")
    parser.add_argument("--verbose", action="store_true", help="print every question not as expected (tune sets)")
    args = parser.parse_args()
    names = args.sets.split(",") if args.sets else split(args.split)
    readable = set(split("tune"))
    reports = [run_set(name, _show if args.verbose and name in readable else None) for name in names]
    report = {r.name: r.as_json() for r in reports} | {"all": totals(reports)}
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 1 if report["all"]["leaks"] else 0


if __name__ == "__main__":
    sys.exit(main())
