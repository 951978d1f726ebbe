"""The step watchdog: how far past its limit a run goes when a step never checks its deadline, and what it costs.

Run: python3 benchmarks/bench_watchdog.py [--rounds 3] [--limits 0.3,3]

Two measures on the bundled demo corpus, offline reasoner, side by side in one process:
- a run whose evaluate step spins in a loop with no deadline check (ended by itself after 30 s, so the figure
  without the watchdog is bounded): the run's elapsed time past its limit, with the watchdog and without it;
- warm `ask` over the 40 demo questions, alternating with and without the watchdog: medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.graph import spans  # noqa: E402
from boundloop.loop.runner import LoopRunner  # noqa: E402
from boundloop.loop.workspace import Workspace  # noqa: E402
from boundloop.policies.budget import BudgetLimits  # noqa: E402
from boundloop.reasoners.offline import OfflineReasoner  # noqa: E402
from boundloop.retrieval.config import DEMO_ROOT  # noqa: E402

SPIN_SECONDS = 30.0
WATCHED = spans.watched


class Spinning(OfflineReasoner):
    """Evaluate spins with no deadline check, as the typo search once did for 519 s."""

    def evaluate(self, *args, **kwargs):
        ends = time.monotonic() + SPIN_SECONDS
        while time.monotonic() < ends:
            sum(range(200))
        return super().evaluate(*args, **kwargs)


def watchdog(on: bool) -> None:
    spans.watched = WATCHED if on else (lambda deadline: nullcontext())  # type: ignore[assignment]


def questions() -> list[dict]:
    return [json.loads(line) for line in (DEMO_ROOT / "questions.jsonl").read_text().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limits", default="0.3,3")
    args = parser.parse_args()
    base = Workspace.open(None, None).runner
    report: dict[str, object] = {}
    for limit in (float(x) for x in args.limits.split(",")):
        spinning = LoopRunner(resolver=base.resolver, backend=base.backend, encoder=base.encoder,
                              reasoner=Spinning(), limits=BudgetLimits(max_seconds=limit))
        for on in (True, False):
            watchdog(on)
            result = spinning.ask("Who is the Head of Finance?", "bob")
            report[f"limit_{limit:g}s_{'watchdog' if on else 'no_watchdog'}"] = {
                "elapsed_past_limit_s": round(result.usage.elapsed_ms / 1000 - limit, 3),
                "stop_reason": result.stop_reason, "status": result.status}
    times: dict[bool, list[float]] = {True: [], False: []}
    for q in questions():  # warm up
        base.ask(q["question"], q["user"])
    for _ in range(args.rounds):
        for q in questions():
            for on in (True, False):
                watchdog(on)
                started = time.perf_counter()
                base.ask(q["question"], q["user"])
                times[on].append((time.perf_counter() - started) * 1000)
    watchdog(True)
    report["warm_ask_p50_ms_watchdog"] = round(statistics.median(times[True]), 2)
    report["warm_ask_p50_ms_no_watchdog"] = round(statistics.median(times[False]), 2)
    report["ratio"] = round(statistics.median(times[True]) / statistics.median(times[False]), 3)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
