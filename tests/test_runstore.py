"""The run store's contract on both implementations, and its migrations."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from contextlib import closing

from boundloop.domain.result import RunResult
from boundloop.domain.usage import Usage
from boundloop.retrieval.migration_runner import Migration
from boundloop.runstore import postgres as pg_store
from boundloop.runstore import sqlite as sqlite_store
from boundloop.runstore.retention import PRUNE_BATCH, Retention
from boundloop.runstore.sqlite import SqliteRunStore


def _open(kind: str, where):
    if kind == "sqlite":
        return SqliteRunStore(where / "runs.db")
    return pg_store.PostgresRunStore(where)


def result(run_id: str) -> RunResult:
    return RunResult(run_id=run_id, status="answered", complete=True, stop_reason=None, query_class="lookup",
                     answer="Priya Raman [1]", claims=[], citations=[], usage=Usage(hops=1, tokens=9, retrieval_calls=2,
                     elapsed_ms=40), abstain_reason=None, fallback_results=[], conflicts=[], dropped_claims=0)


def test_the_registry_keeps_owner_and_result(place):
    store = _open(*place)
    try:
        store.start("r1", "bob", "Who is the Head of Finance?")
        assert store.owner("r1") == "bob" and store.owner("nope") is None
        assert store.result("r1") is None  # running
        store.finish("r1", result("r1"))
        assert store.result("r1") == result("r1")
        assert store.finished_runs() == [{"query_class": "lookup", "status": "answered", "complete": 1,
                                          "stop_reason": None, "feedback_score": None,
                                          "usage": {"hops": 1, "tokens": 9, "retrieval_calls": 2, "elapsed_ms": 40,
                                                    "documents": 0}}]
    finally:
        store.close()


def test_migrations_run_once_each_in_order(place, monkeypatch):
    kind, where = place
    _open(kind, where).close()
    module = sqlite_store if kind == "sqlite" else pg_store
    extra = Migration(len(module.MIGRATIONS) + 1, "an extra table",
                      ("CREATE TABLE boundloop_extra (x INTEGER)",))  # no IF NOT EXISTS: a second run would fail
    monkeypatch.setattr(module, "MIGRATIONS", [*module.MIGRATIONS, extra])
    for _ in range(2):
        store = _open(kind, where)
        try:
            versions = store._rows("SELECT version FROM boundloop_schema ORDER BY version")
            assert [row["version"] for row in versions] == list(range(1, len(module.MIGRATIONS) + 1))
            assert store._rows("SELECT count(*) AS n FROM boundloop_extra") == [{"n": 0}]
        finally:
            store.close()


def test_a_store_made_before_migrations_were_counted_opens(tmp_path):
    with sqlite3.connect(tmp_path / "runs.db") as old:
        old.execute("CREATE TABLE boundloop_runs (run_id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at REAL NOT "
                    "NULL, question TEXT NOT NULL, status TEXT, query_class TEXT, complete INTEGER, stop_reason TEXT, "
                    "hops INTEGER, tokens INTEGER, retrieval_calls INTEGER, elapsed_ms INTEGER, result TEXT)")
        old.execute("INSERT INTO boundloop_runs (run_id, owner, created_at, question) VALUES ('r0', 'ann', 1, 'q')")
    store = SqliteRunStore(tmp_path / "runs.db")
    try:
        assert store.owner("r0") == "ann"
    finally:
        store.close()


def test_a_run_keeps_one_small_checkpoint(place, index, encoder, resolver):
    """One checkpoint per run, written when it ends (about 270 KB a demo run when every transition was one)."""
    from tests.loop_fixtures import make_runner

    kind, where = place
    store = _open(kind, where)
    try:
        runner = make_runner(index, encoder, resolver)
        runner = type(runner)(resolver=resolver, backend=index, encoder=encoder, reasoner=runner.reasoner,
                              limits=runner.limits, store=store)
        run_id = runner.ask("Where does the Head of Finance sit?", "bob").run_id
        assert len(runner.trace(run_id)) > 10  # every transition is still in the trace
        sql = ("SELECT count(*) AS n FROM checkpoints WHERE thread_id=?", "SELECT count(*) AS n FROM boundloop_runs")
        assert store._rows(sql[0], (run_id,)) == [{"n": 1}] and store._rows(sql[1]) == [{"n": 1}]
        size = (["SELECT sum(length(checkpoint)) AS n FROM checkpoints WHERE thread_id=?",
                 "SELECT sum(length(value)) AS n FROM writes WHERE thread_id=?"] if kind == "sqlite" else
                ["SELECT sum(pg_column_size(t.*)) AS n FROM checkpoints t WHERE thread_id=?",
                 "SELECT sum(pg_column_size(t.*)) AS n FROM checkpoint_blobs t WHERE thread_id=?",
                 "SELECT sum(pg_column_size(t.*)) AS n FROM checkpoint_writes t WHERE thread_id=?"])
        assert sum(store._rows(q, (run_id,))[0]["n"] or 0 for q in size) < 50_000
    finally:
        store.close()


def _run(store, run_id: str, created_at: float | None = None, payload: int = 0) -> None:
    """A finished run with one checkpoint (of about `payload` bytes) behind it."""
    store.start(run_id, "bob", "q")
    if created_at is not None:
        store._execute("UPDATE boundloop_runs SET created_at=? WHERE run_id=?", (created_at, run_id))
    config = {"configurable": {"thread_id": run_id, "checkpoint_ns": ""}}
    store.checkpointer.put(config, {"v": 1, "id": "1", "ts": "", "channel_values": {"x": "y" * payload},
                                    "channel_versions": {}, "versions_seen": {}}, {}, {})
    store.finish(run_id, result(run_id))


def _threads(store) -> set[str]:
    return {row["thread_id"] for row in store._rows("SELECT DISTINCT thread_id FROM checkpoints")}


def test_retention_keeps_the_newest_and_drops_the_old_as_runs_finish(place):
    kind, where = place
    store = _open(kind, where)
    store.retention = Retention(keep=3, max_age_days=30)
    try:
        _run(store, "ancient", created_at=time.time() - 31 * 86_400)
        for n in range(5):
            _run(store, f"r{n}")
        assert store.owner("ancient") is None and "ancient" not in _threads(store)
        assert [store.owner(f"r{n}") for n in range(5)] == [None, None, "bob", "bob", "bob"]
        assert _threads(store) == {"r2", "r3", "r4"}
        store.start("running", "bob", "q")  # an unfinished run is never pruned
        store._execute("UPDATE boundloop_runs SET created_at=0 WHERE run_id='running'")
        assert store.prune() == 0 and store.owner("running") == "bob"
    finally:
        store.close()


def test_a_backlog_is_pruned_a_small_batch_per_finished_run(tmp_path):
    store = SqliteRunStore(tmp_path / "runs.db")
    try:
        for n in range(PRUNE_BATCH + 10):
            _run(store, f"r{n:03}")
        store.retention = Retention(keep=1)
        _run(store, "next")
        assert store.count() == 11  # one batch deleted as `next` finished, the rest at the following runs
        assert store.prune() == 10 and store.count() == 1 and store.owner("next") == "bob"
    finally:
        store.close()


def test_sqlite_gives_the_space_of_pruned_runs_back(tmp_path):
    store = SqliteRunStore(tmp_path / "runs.db")
    try:
        assert store.incremental
        for n in range(40):
            _run(store, f"r{n:02}", payload=20_000)
        store.compact()
        full = (tmp_path / "runs.db").stat().st_size
        store.retention = Retention(keep=2)
        store.prune()
        store._execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert (tmp_path / "runs.db").stat().st_size < full / 4
    finally:
        store.close()


def test_an_older_file_switches_to_incremental_vacuum(tmp_path):
    with closing(sqlite3.connect(tmp_path / "runs.db")) as old:
        old.execute("CREATE TABLE boundloop_runs (run_id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at REAL NOT "
                    "NULL, question TEXT NOT NULL, status TEXT, query_class TEXT, complete INTEGER, stop_reason TEXT, "
                    "hops INTEGER, tokens INTEGER, retrieval_calls INTEGER, elapsed_ms INTEGER, result TEXT)")
        assert old.execute("PRAGMA auto_vacuum").fetchone()[0] == 0
    store = SqliteRunStore(tmp_path / "runs.db")
    try:
        assert store.incremental
    finally:
        store.close()


def test_runs_of_a_process_that_died_are_marked_interrupted(place):
    kind, where = place
    dead = subprocess.run([sys.executable, "-c", "from runstore.process import worker_id; print(worker_id())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    store = _open(kind, where)
    try:
        store.start("crashed", "bob", "q")
        store._execute("UPDATE boundloop_runs SET worker=? WHERE run_id='crashed'", (dead,))
        store.start("elsewhere", "bob", "q")  # another host's run: given up only once it is very old
        store._execute("UPDATE boundloop_runs SET worker='other-host:1:1' WHERE run_id='elsewhere'")
        store.start("live", "bob", "q")  # this process
    finally:
        store.close()
    store = _open(kind, where)  # the next start
    try:
        assert store.interrupted("crashed") and not store.interrupted("elsewhere") and not store.interrupted("live")
        assert store.result("crashed") is None and store.finished_runs() == []
        assert store.count() == 3 and store.count("interrupted") == 1
    finally:
        store.close()


def test_runs_prune_applies_the_retention_on_demand(tmp_path, monkeypatch, capsys):
    from boundloop.cli.main import main

    store = SqliteRunStore(tmp_path / "runs.db")
    for n in range(5):
        _run(store, f"r{n}", payload=5_000)
    store.close()
    monkeypatch.setenv("BOUNDLOOP_RUNS_KEEP", "2")
    monkeypatch.delenv("BOUNDLOOP_CHECKPOINT_URL", raising=False)
    assert main(["runs", "prune", "--index", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("pruned 3 runs, 2 kept (keep 2, at most 30 days)")
    monkeypatch.setenv("BOUNDLOOP_RUNS_MAX_AGE_DAYS", "soon")
    assert main(["runs", "prune", "--index", str(tmp_path)]) == 2
    assert "BOUNDLOOP_RUNS_MAX_AGE_DAYS" in capsys.readouterr().err
