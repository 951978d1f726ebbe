"""Run-store bytes per demo run: checkpoints and registry row, on SQLite and on PostgreSQL, side by side.

Run: python3 benchmarks/checkpoint_size.py [--rounds 1] [--stores sqlite,postgres] [--out bench-results/ckpt.json]
Asks the 40 demo questions (offline reasoner) into a fresh store of each kind and reports, per run, the bytes the
store holds for it: SQLite, the checkpoint and write rows of its thread plus its registry row, and the file's
growth (after a VACUUM) divided by the runs; PostgreSQL, `pg_column_size` of its checkpoint, blob and write rows
plus its registry row. PostgreSQL starts its own server through `pgserver` (or use `--pg-url`).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.loop.runner import LoopRunner  # noqa: E402
from boundloop.loop.workspace import Workspace  # noqa: E402
from boundloop.policies.budget import BudgetLimits  # noqa: E402
from boundloop.reasoners.factory import build_reasoner  # noqa: E402
from boundloop.retrieval.config import DEMO_ROOT  # noqa: E402
from boundloop.runstore.store import RunStore  # noqa: E402

SQLITE_SIZES = {
    "checkpoints": "SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints WHERE thread_id=?",
    "writes": "SELECT coalesce(sum(length(value) + length(channel) + length(task_id)), 0) FROM writes "
              "WHERE thread_id=?",
    "registry": "SELECT coalesce(sum(length(result) + length(question)), 0) FROM boundloop_runs WHERE run_id=?",
}
PG_SIZES = {
    "checkpoints": "SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM checkpoints t WHERE thread_id=%s",
    "blobs": "SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM checkpoint_blobs t WHERE thread_id=%s",
    "writes": "SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM checkpoint_writes t WHERE thread_id=%s",
    "registry": "SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM boundloop_runs t WHERE run_id=%s",
}


def questions() -> list[dict]:
    return [json.loads(line) for line in (DEMO_ROOT / "questions.jsonl").read_text().splitlines() if line.strip()]


def ask_all(store: RunStore, rounds: int) -> list[str]:
    base = Workspace.open(None, None)
    runner = LoopRunner(resolver=base.resolver, backend=base.backend, encoder=base.encoder,
                        reasoner=build_reasoner(), limits=BudgetLimits.from_env(), store=store)
    return [runner.ask(q["question"], q["user"]).run_id for _ in range(rounds) for q in questions()]


def summary(per_run: list[dict[str, int]], parts: list[str]) -> dict:
    totals = [sum(row[p] for p in parts) for row in per_run]
    return {"runs": len(per_run), "median_bytes": statistics.median(totals), "max_bytes": max(totals),
            "median_by_part": {p: statistics.median(row[p] for row in per_run) for p in parts}}


def measure_sqlite(rounds: int) -> dict:
    from boundloop.runstore.sqlite import SqliteRunStore

    def compacted(path: Path) -> int:
        """The file's size with the WAL folded in and free pages dropped."""
        with closing(sqlite3.connect(path)) as db:
            db.execute("VACUUM")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return path.stat().st_size

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "runs.db"
        SqliteRunStore(path).close()
        empty = compacted(path)
        store = SqliteRunStore(path)
        run_ids = ask_all(store, rounds)
        store.close()
        grown = compacted(path) - empty
        with closing(sqlite3.connect(path)) as db:
            per_run = [{part: db.execute(sql, (run_id,)).fetchone()[0] for part, sql in SQLITE_SIZES.items()}
                       for run_id in run_ids]
            checkpoints = db.execute("SELECT count(*) FROM checkpoints").fetchone()[0] / len(run_ids)
    return {**summary(per_run, list(SQLITE_SIZES)), "file_bytes_per_run": grown / len(run_ids),
            "checkpoints_per_run": checkpoints}


@contextmanager
def postgres_url(given: str | None) -> Iterator[str]:
    if given:
        yield given
        return
    from tests.service import postgres

    for server in postgres.server():
        yield from postgres.fresh_database(server)


def measure_postgres(rounds: int, url: str) -> dict:
    import psycopg

    from boundloop.runstore.postgres import PostgresRunStore

    store = PostgresRunStore(url)
    run_ids = ask_all(store, rounds)
    store.close()
    with psycopg.connect(url) as conn:
        per_run = [{part: conn.execute(sql, (run_id,)).fetchone()[0] for part, sql in PG_SIZES.items()}
                   for run_id in run_ids]
        checkpoints = conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0] / len(run_ids)
    return {**summary(per_run, list(PG_SIZES)), "checkpoints_per_run": checkpoints}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="times each demo question is asked")
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--pg-url", help="an empty PostgreSQL database (default: start one with pgserver)")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args()
    result: dict = {"date": time.strftime("%Y-%m-%d"), "questions": len(questions()), "rounds": args.rounds}
    stores = args.stores.split(",")
    if "sqlite" in stores:
        result["sqlite"] = measure_sqlite(args.rounds)
    if "postgres" in stores:
        with postgres_url(args.pg_url) as url:
            result["postgres"] = measure_postgres(args.rounds, url)
    print("| store | runs | checkpoints per run | bytes per run, median | max | file growth per run |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for kind in ("sqlite", "postgres"):
        if kind in result:
            r = result[kind]
            growth = f"{r['file_bytes_per_run'] / 1024:.1f} KB" if "file_bytes_per_run" in r else ""
            print(f"| {kind} | {r['runs']} | {r['checkpoints_per_run']:.1f} | {r['median_bytes'] / 1024:.1f} KB | "
                  f"{r['max_bytes'] / 1024:.1f} KB | {growth} |")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
