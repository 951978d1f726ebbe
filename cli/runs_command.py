"""`boundloop runs prune`: apply the run retention now, and give the space back."""

from __future__ import annotations

import argparse

from boundloop.policies.settings import settings
from boundloop.retrieval.config import demo_index_dir
from boundloop.runstore.location import checkpoint_url_from_env, open_run_store, state_dir
from boundloop.runstore.sqlite import SqliteRunStore


def add_runs(p: argparse.ArgumentParser) -> None:
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    prune = actions.add_parser("prune", help="delete runs past BOUNDLOOP_RUNS_KEEP / BOUNDLOOP_RUNS_MAX_AGE_DAYS")
    prune.add_argument("--index", help="index folder whose runs.db to prune (default: $BOUNDLOOP_INDEX, else the "
                                       "demo index; $BOUNDLOOP_CHECKPOINT_URL selects PostgreSQL instead)")
    prune.set_defaults(run=run_prune)


def _megabytes(store: SqliteRunStore) -> str:
    return f"{store.path.stat().st_size / 1e6:.1f} MB"


def run_prune(args: argparse.Namespace) -> int:
    """Mark crashed runs interrupted, delete runs past the retention, then shrink a SQLite file."""
    index = args.index or settings().index or str(demo_index_dir())
    store = open_run_store(checkpoint_url_from_env(), state_dir(index))
    try:
        before = _megabytes(store) if isinstance(store, SqliteRunStore) else ""
        interrupted = store.mark_interrupted()
        deleted = store.prune()
        if isinstance(store, SqliteRunStore):
            store.compact()  # also switches a file made before to incremental vacuum
            size = f"; {store.path} {before} -> {_megabytes(store)}"
        else:
            size = ""
        print(f"pruned {deleted} runs, {store.count()} kept (keep {store.retention.keep:,}, at most "
              f"{store.retention.max_age_days:g} days); {interrupted} newly marked interrupted{size}")
    finally:
        store.close()
    return 0
