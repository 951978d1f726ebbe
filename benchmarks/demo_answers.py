"""How many of the demo's 40 questions get the answer they should, per question class (issue 11).

Run: python3 benchmarks/demo_answers.py [--verbose]
A question is as expected when it is answerable and the run answered with every `answer_contains` string in its
answer or short answer (case aside), or when it must not be answered (access and out-of-scope questions) and the
run did not answer. Each question is asked once through the loop, as its user, with the offline reasoner.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.loop.workspace import Workspace  # noqa: E402
from boundloop.retrieval.config import DEMO_ROOT  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every question that is not as expected")
    args = parser.parse_args()
    runner = Workspace.open(None, None).runner
    by_class: dict[str, list[int]] = {}
    limits = 0
    rows = [json.loads(line) for line in (DEMO_ROOT / "questions.jsonl").read_text().splitlines() if line.strip()]
    for q in rows:
        result = runner.ask(q["question"], q["user"])
        said = f"{result.answer} {result.short_answer or ''}".lower()
        if q["expect"] == "answered":
            good = result.status == "answered" and all(s.lower() in said for s in q.get("answer_contains", []))
        else:
            good = result.status != "answered"
        limits += not result.complete
        counts = by_class.setdefault(q["class"], [0, 0])
        counts[0] += good
        counts[1] += 1
        if args.verbose and not good:
            print(f"{q['id']} {q['class']} {result.status} short={result.short_answer!r}: {q['question']}",
                  file=sys.stderr)
    print(json.dumps({
        "as_expected": sum(c[0] for c in by_class.values()), "questions": len(rows),
        "by_class": {k: f"{v[0]}/{v[1]}" for k, v in by_class.items()},
        "limit_hit_rate": round(limits / len(rows), 3),
    }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
