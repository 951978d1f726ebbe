"""The run store's contract on both implementations, and its migrations."""

from __future__ import annotations

import sqlite3

import pytest

from domain.result import RunResult
from domain.usage import Usage
from runstore import postgres as pg_store
from runstore import sqlite as sqlite_store
from runstore.sqlite import SqliteRunStore


def _open(kind: str, where):
    if kind == "sqlite":
        return SqliteRunStore(where / "runs.db")
    return pg_store.PostgresRunStore(where)


@pytest.fixture(params=["sqlite", "postgres"])
def place(request, tmp_path):
    """Where a store lives: a folder for SQLite, a fresh database URL for PostgreSQL."""
    if request.param == "sqlite":
        yield "sqlite", tmp_path
        return
    from tests.service import postgres

    databases = postgres.fresh_database(request.getfixturevalue("pg_index_server"))
    yield "postgres", next(databases)
    databases.close()


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
                                          "stop_reason": None, "hops": 1, "tokens": 9, "retrieval_calls": 2,
                                          "elapsed_ms": 40}]
    finally:
        store.close()


def test_migrations_run_once_each_in_order(place, monkeypatch):
    kind, where = place
    _open(kind, where).close()
    module = sqlite_store if kind == "sqlite" else pg_store
    extra = ("CREATE TABLE boundloop_extra (x INTEGER)",)  # no IF NOT EXISTS: a second run would fail
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
