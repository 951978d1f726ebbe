"""`boundloop ask`, `boundloop trace` and `boundloop stats`."""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import Any

from boundloop.cli.inputs import add_location_args, require_text_and_user
from boundloop.cli.jsonl import run_batch
from boundloop.cli.result_text import print_result
from boundloop.loop.workspace import Workspace
from boundloop.policies.errors import BoundloopError
from boundloop.policies.limits import declared
from boundloop.runstore.stats import summarise


def add_ask(p: argparse.ArgumentParser) -> None:
    p.add_argument("question", nargs="?", help="the question")
    p.add_argument("--user", help="the user to ask as (from the directory)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--batch", metavar="FILE.jsonl", help='many questions: lines {"id", "user", "question"}')
    p.add_argument("--out", metavar="FILE", help="with --batch: write results here instead of stdout")
    p.add_argument("--conversation", metavar="ID",
                   help="continue this conversation of the user's (the conversation_id a past ask printed): the "
                        "question may then be a follow-up such as 'And in Toronto?'")
    add_location_args(p)
    p.set_defaults(run=run_ask)


def add_trace(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_id")
    p.add_argument("--json", action="store_true")
    add_location_args(p)
    p.set_defaults(run=run_trace)


def add_stats(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")
    add_location_args(p)
    p.set_defaults(run=run_stats)


def run_ask(args: argparse.Namespace) -> int:
    if args.batch and args.conversation:
        raise BoundloopError("--conversation continues one conversation: ask its follow-ups one at a time, not with "
                             "--batch")
    if not args.batch:
        require_text_and_user("ask", "QUESTION", args.question, args.user)
    workspace = Workspace.open(args.index, args.directory)
    if args.batch:
        return run_batch(args.batch, args.out,
                         lambda user, question: workspace.runner.ask(question, user).model_dump(), desc="asking")
    result = workspace.runner.ask(args.question, args.user, args.conversation)
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        print_result(result, args.question)
    return 0


def run_trace(args: argparse.Namespace) -> int:
    spans = Workspace.open(args.index, args.directory).runner.trace(args.run_id)
    if args.json:
        print(json.dumps({"run_id": args.run_id, "spans": [span.model_dump() for span in spans]}, indent=2))
        return 0
    columns = declared()  # one per limit, named by its declaration
    lead = f"{'#':>2}  {'node':<10} {'start':<12} {'ms':>8}  "
    print(lead + " ".join(limit.column for limit in columns) + "  decision / reason")
    for n, span in enumerate(spans, start=1):
        start = datetime.fromtimestamp(span.start).strftime("%H:%M:%S.%f")[:12]
        used = " ".join(f"{getattr(span.usage, limit.usage):>{len(limit.column)}}" for limit in columns)
        row = f"{n:>2}  {span.node:<10} {start:<12} {span.duration_ms:>8.2f}  {used}  "
        print(row + span.decision)
        if span.reason:
            print(f"{'':>{len(row)}}({span.reason})")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    store = Workspace.open(args.index, args.directory).store
    summary = summarise(store.finished_runs(), kept=store.count(), interrupted=store.count("interrupted"))
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{summary['runs']} runs kept ({summary['finished']} finished, {summary['interrupted']} interrupted)")
    print("average hops per class: " + ", ".join(f"{k} {v:.2f}" for k, v in summary["avg_hops_by_class"].items()))
    shares = summary["limit_hit_share"].items()
    print("share of runs that hit each limit: " + ", ".join(f"{k} {v:.1%}" for k, v in shares))
    for group in ("limit_hit_runs", "other_runs"):
        g = summary[group]
        print(f"{group.replace('_', ' ')}: {g['runs']} runs, answered {g['answered_share']:.1%}, "
              f"rated helpful {_share(g)}")
    print("rated helpful per class: " + (", ".join(f"{k} {_share(v)}" for k, v in summary["feedback_by_class"].items())
                                          or "no runs"))
    return 0


def _share(feedback: dict[str, Any]) -> str:
    """'75.0% of 4 rated', or 'none rated'."""
    if not feedback["rated"]:
        return "none rated"
    return f"{feedback['positive_share']:.1%} of {feedback['rated']} rated"
