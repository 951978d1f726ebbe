"""The SQLite run store: checkpoints (`SqliteSaver`) and the registry in one WAL-mode file, `runs.db`.

Safe to share between the threads of one process and between the processes of one machine.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from retrieval.private_files import private_database
from runstore.retention import Retention
from runstore.serde import checkpoint_serde
from runstore.store import Migration, RunStore, Sql

MIGRATIONS: list[Migration] = [
    (  # 1: the run registry (IF NOT EXISTS: stores made before migrations were counted already have it)
        """CREATE TABLE IF NOT EXISTS boundloop_runs (
            run_id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            created_at REAL NOT NULL,
            question TEXT NOT NULL,
            status TEXT,
            query_class TEXT,
            complete INTEGER,
            stop_reason TEXT,
            hops INTEGER, tokens INTEGER, retrieval_calls INTEGER, elapsed_ms INTEGER,
            result TEXT
        )""",
        "CREATE INDEX IF NOT EXISTS boundloop_runs_owner ON boundloop_runs(owner, created_at)",
    ),
    (  # 2: the process that runs each run (to tell a crash), and runs by age (for retention)
        "ALTER TABLE boundloop_runs ADD COLUMN worker TEXT",
        "CREATE INDEX IF NOT EXISTS boundloop_runs_created ON boundloop_runs(created_at)",
    ),
]
INCREMENTAL = 2  # PRAGMA auto_vacuum: deleted runs' pages can be given back to the file system
CONVERT_UP_TO_BYTES = 16 * 1024 * 1024  # older files this small switch to incremental vacuum when opened


def _connect(path: Path, autocommit: bool = False) -> sqlite3.Connection:
    conn = sqlite3.connect(str(private_database(path)), timeout=30, check_same_thread=False,
                           isolation_level=None if autocommit else "DEFERRED")
    conn.execute(f"PRAGMA auto_vacuum={INCREMENTAL}")  # takes effect on a new file, or at the next VACUUM
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


class SqliteRunStore(RunStore):
    """Checkpoints and registry in one file; the registry has its own autocommit connection."""

    kind = "sqlite"

    def __init__(self, path: str | Path, retention: Retention | None = None) -> None:
        self.path = Path(path)
        self.retention = retention or Retention()
        self._conn = _connect(self.path, autocommit=True)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self._migrate(MIGRATIONS)
        saver = SqliteSaver(_connect(self.path), serde=checkpoint_serde())
        saver.setup()
        self.checkpointer = saver
        if self.path.stat().st_size <= CONVERT_UP_TO_BYTES:
            self.compact(only_if_needed=True)
        self.mark_interrupted()

    @property
    def incremental(self) -> bool:
        """Whether deleted runs give their space back to the file system as they go."""
        return int(self._rows("PRAGMA auto_vacuum")[0]["auto_vacuum"]) == INCREMENTAL

    def compact(self, only_if_needed: bool = False) -> None:
        """Rewrite the file (VACUUM): drops free pages, and switches a file made before to incremental vacuum.

        It takes the write lock for as long as the rewrite lasts: `boundloop runs prune` does it on demand, and
        a store does it when opened only for a small older file.
        """
        if only_if_needed and self.incremental:
            return
        with self._lock:
            self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _reclaim(self) -> None:
        with self._lock:  # the pragma frees one page per step: sqlite3_exec (executescript) runs it to the end
            self._conn.executescript("PRAGMA incremental_vacuum;")

    @contextmanager
    def _transaction(self) -> Iterator[Sql]:
        def sql(statement: str, *params: Any) -> list[dict[str, Any]]:
            return [dict(row) for row in self._conn.execute(statement, params).fetchall()]

        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")  # the write lock now: two processes migrating wait in turn
            try:
                yield sql
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        with self._lock:
            self._conn.execute(sql, params)

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(row) for row in self._conn.execute(sql, params).fetchall()]

    def _json(self, text: str) -> Any:
        return text

    def close(self) -> None:
        self._conn.close()
        self.checkpointer.conn.close()  # type: ignore[attr-defined]
