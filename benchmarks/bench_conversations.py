"""Conversations benchmark: the 20 two-turn demo conversations (`demo/conversations.jsonl`) and what resolution costs.

Run: python3 benchmarks/bench_conversations.py [--repeat 200] [--rounds 3] [--out bench-results/conversations.json]

- Follow-ups answered as expected, and leaks in either turn (`evals.conversations`), offline reasoner, demo corpus,
  a fresh run store.
- Follow-up resolution, offline, median over every follow-up x `--repeat`: the offline resolver alone; the resolve
  step as traced (it also checks that the user may still read what each earlier turn showed); and loading the
  conversation's turns from the run store before the run.
- A whole follow-up against the same question standing alone, side by side: `ask(follow-up, conversation)` and
  `ask(its standalone question)` interleaved, every follow-up x `--rounds`; medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.domain.conversation import Turn  # noqa: E402
from boundloop.evals.conversations import ConversationEval, Outcome, load_conversations  # noqa: E402
from boundloop.loop.runner import LoopRunner  # noqa: E402
from boundloop.loop.workspace import Workspace  # noqa: E402
from boundloop.policies.budget import BudgetLimits, CallBudget  # noqa: E402
from boundloop.reasoners.offline import OfflineReasoner  # noqa: E402
from boundloop.runstore.sqlite import SqliteRunStore  # noqa: E402


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 4)


def resolution_costs(evaluation: ConversationEval, outcomes: list[Outcome], repeat: int) -> dict[str, float]:
    runner, reasoner = evaluation.runner, OfflineReasoner()
    budget = CallBudget(seconds=10.0, tokens=45_000)
    resolver, step, load = [], [], []
    assert runner.store is not None
    for outcome in outcomes:
        turns = [Turn.shown(outcome.conversation.first, outcome.first)]
        for _ in range(repeat):
            started = time.perf_counter()
            reasoner.resolve(outcome.conversation.follow_up, turns, budget)
            resolver.append(time.perf_counter() - started)
            started = time.perf_counter()
            runner.store.context_turns(outcome.follow.conversation_id or "")
            load.append(time.perf_counter() - started)
        step += [s.duration_ms / 1000 for s in runner.trace(outcome.follow.run_id) if s.node == "resolve"]
    return {"resolver_median_ms": _median_ms(resolver), "resolve_step_median_ms": _median_ms(step),
            "load_turns_median_ms": _median_ms(load)}


def follow_up_overhead(runner: LoopRunner, outcomes: list[Outcome], rounds: int) -> dict[str, float]:
    """A follow-up asked in its conversation against its standalone question asked fresh, interleaved.

    Each round adds a turn to the conversation, so later rounds resolve against a slightly longer history.
    """
    follow, alone = [], []
    for _ in range(rounds):
        for outcome in outcomes:
            c, standalone = outcome.conversation, outcome.follow.standalone_question or outcome.conversation.follow_up
            started = time.perf_counter()
            runner.ask(c.follow_up, c.user, outcome.follow.conversation_id)
            follow.append(time.perf_counter() - started)
            started = time.perf_counter()
            runner.ask(standalone, c.user)
            alone.append(time.perf_counter() - started)
    return {"follow_up_ask_median_ms": _median_ms(follow), "standalone_ask_median_ms": _median_ms(alone),
            "follow_up_over_standalone": round(statistics.median(follow) / statistics.median(alone), 3),
            "asks_timed": len(follow) + len(alone)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="timed resolutions per follow-up")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of follow-up/standalone asks, side by side")
    parser.add_argument("--out", help="also write the figures as JSON here")
    args = parser.parse_args()
    workspace = Workspace.open(None, None)
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteRunStore(Path(folder) / "runs.db")
        runner = LoopRunner(resolver=workspace.resolver, backend=workspace.backend, encoder=workspace.encoder,
                            reasoner=OfflineReasoner(), limits=BudgetLimits(), store=store)
        evaluation = ConversationEval(runner)
        outcomes = [evaluation.run(c) for c in load_conversations()]
        costs = resolution_costs(evaluation, outcomes, args.repeat)
        costs |= follow_up_overhead(runner, outcomes, args.rounds)
        store.close()
    print("| id | kind | user | follow-up | standalone question | status | as expected | leaks |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for o in outcomes:
        c = o.conversation
        print(f"| {c.id} | {c.kind} | {c.user} | {c.follow_up} | {o.follow.standalone_question} | {o.follow.status} "
              f"| {'yes' if o.as_expected else 'NO'} | {len(o.leaks)} |")
    summary = {
        "conversations": len(outcomes),
        "follow_ups_as_expected": sum(o.as_expected for o in outcomes),
        "by_kind": {kind: f"{sum(o.as_expected for o in outcomes if o.conversation.kind == kind)}/"
                          f"{sum(o.conversation.kind == kind for o in outcomes)}"
                    for kind in dict.fromkeys(o.conversation.kind for o in outcomes)},
        "runs_with_leaks": sum(bool(o.leaks) for o in outcomes),
        "leaks": [f"{o.conversation.id}: {leak}" for o in outcomes for leak in o.leaks],
        **costs,
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(summary, indent=2))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
