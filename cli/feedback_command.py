"""`boundloop feedback RUN_ID --score 1|-1 [--comment TEXT]`: rate an answer, as its owner would on the web page.

The rating is stored with the run (a new one replaces the last), counted by `boundloop stats`, and sent to LangSmith
as feedback on the run's trace when LangSmith tracing is configured.
"""

from __future__ import annotations

import argparse

from pydantic import ValidationError

from boundloop.cli.inputs import add_location_args
from boundloop.domain.feedback import MAX_COMMENT_CHARS, Rating
from boundloop.loop.workspace import Workspace
from boundloop.policies.errors import BoundloopError


def add_feedback(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_id", help="the run to rate (printed by ask, and in its --json)")
    p.add_argument("--score", type=int, required=True, choices=(1, -1), help="1: helpful; -1: not helpful")
    p.add_argument("--comment", help=f"why, at most {MAX_COMMENT_CHARS:,} characters")
    add_location_args(p)
    p.set_defaults(run=run_feedback)


def run_feedback(args: argparse.Namespace) -> int:
    try:
        rating = Rating(score=args.score, comment=args.comment)
    except ValidationError:
        raise BoundloopError(f"--comment is longer than {MAX_COMMENT_CHARS:,} characters") from None
    store = Workspace.open(args.index, args.directory).store
    if store.owner(args.run_id) is None:
        raise BoundloopError(f"no run {args.run_id!r}")
    if store.result(args.run_id) is None:
        raise BoundloopError(f"run {args.run_id} has not finished, so it cannot be rated yet")
    stored = store.record_feedback(args.run_id, rating)
    from boundloop.service.langsmith_feedback import LangSmithFeedback

    sent = LangSmithFeedback().send(args.run_id, stored)
    comment = f": {stored.comment}" if stored.comment else ""
    print(f"rated run {args.run_id} {'+1' if stored.score > 0 else '-1'}{comment}"
          + ("; sent to LangSmith" if sent else ""))
    return 0
