"""Loop benchmark: per-transition overhead of graph + governor + checkpoint, per-node time, warm and cold `ask`.

Run: python3 benchmarks/bench_loop.py [--rounds 5] [--out bench-results/loop.json]
All figures are medians measured side by side in one run on the bundled demo corpus (offline reasoner).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.loop.runner import LoopRunner  # noqa: E402
from boundloop.loop.workspace import Workspace  # noqa: E402
from boundloop.retrieval.config import DEMO_ROOT  # noqa: E402
from boundloop.runstore.sqlite import SqliteRunStore  # noqa: E402


def questions() -> list[dict]:
    return [json.loads(line) for line in (DEMO_ROOT / "questions.jsonl").read_text().splitlines() if line.strip()]


def measure(runner: LoopRunner, rounds: int) -> dict:
    totals, overheads, per_node = [], [], defaultdict(list)
    for _ in range(rounds):
        for q in questions():
            started = time.perf_counter()
            result = runner.ask(q["question"], q["user"])
            total_ms = (time.perf_counter() - started) * 1000
            spans = runner.trace(result.run_id) if runner.checkpointer else None
            totals.append(total_ms)
            if spans:
                inside = sum(s.duration_ms for s in spans)
                overheads.append((total_ms - inside) / len(spans))
                for s in spans:
                    per_node[s.node].append(s.duration_ms)
    return {
        "ask_p50_ms": statistics.median(totals),
        "ask_p95_ms": sorted(totals)[int(0.95 * (len(totals) - 1))],
        "overhead_per_transition_ms": statistics.median(overheads) if overheads else None,
        "node_median_ms": {k: round(statistics.median(v), 3) for k, v in sorted(per_node.items())},
    }


def cold_start(repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "boundloop", "ask", "Who is the Head of Finance?", "--user", "bob",
                        "--json"], check=True, capture_output=True, cwd=Path(__file__).resolve().parent.parent)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default="bench-results/loop.json")
    args = parser.parse_args()
    workspace = Workspace.open(None, None)
    base = workspace.runner
    with tempfile.TemporaryDirectory() as tmp:
        checkpointed = LoopRunner(resolver=base.resolver, backend=base.backend, encoder=base.encoder,
                                  reasoner=base.reasoner, limits=base.limits,
                                  store=SqliteRunStore(Path(tmp) / "runs.db"))
        plain = LoopRunner(resolver=base.resolver, backend=base.backend, encoder=base.encoder,
                           reasoner=base.reasoner, limits=base.limits)
        measure(checkpointed, 1)  # warm up: encoder, caches, SQLite pages
        with_ckpt = measure(checkpointed, args.rounds)
        without = measure(plain, args.rounds)
    report = {
        "questions": len(questions()), "rounds": args.rounds,
        "sqlite_checkpointer": with_ckpt, "no_checkpointer": without,
        "checkpointer_cost_ratio": with_ckpt["ask_p50_ms"] / without["ask_p50_ms"],
        "cold_cli_ask_ms": cold_start(3),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
