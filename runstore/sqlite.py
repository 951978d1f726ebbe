"""The SQLite run store: checkpoints (`SqliteSaver`) and the registry in one WAL-mode file, `runs.db`.

Safe to share between the threads of one process and between the processes of one machine.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from boundloop.policies.errors import BoundloopError, StoreDamaged
from boundloop.retrieval.private_files import FILE_MODE, private_database
from boundloop.retrieval.sqlite_failures import sqlite_failure
from boundloop.runstore.retention import Retention
from boundloop.runstore.schema import ColumnTypes, migrations
from boundloop.runstore.serde import checkpoint_serde
from boundloop.runstore.sql import Sql
from boundloop.runstore.store import RunStore

MIGRATIONS = migrations(ColumnTypes(real="REAL", boolean="INTEGER", json="TEXT", json_object="json_object"))
INCREMENTAL = 2  # PRAGMA auto_vacuum: deleted runs' pages can be given back to the file system
CONVERT_UP_TO_BYTES = 16 * 1024 * 1024  # older files this small switch to incremental vacuum when opened
REMEDY = "boundloop moves it aside and starts a new one the next time it opens it (past runs stay in the moved file)"
COMPANIONS = ("", "-wal", "-shm")
log = logging.getLogger(__name__)


def _connect(path: Path, autocommit: bool = False) -> sqlite3.Connection:
    conn = sqlite3.connect(str(private_database(path)), timeout=30, check_same_thread=False,
                           isolation_level=None if autocommit else "DEFERRED")
    conn.execute(f"PRAGMA auto_vacuum={INCREMENTAL}")  # takes effect on a new file, or at the next VACUUM
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


class SqliteRunStore(RunStore):
    """Checkpoints and registry in one file; the registry has its own autocommit connection.

    A damaged file never blocks answering: found at open, it is moved aside (`runs.db.damaged-<time>`) and a new one
    made; found later, runs go unrecorded and the file is marked so that the next open replaces it.
    """

    kind = "sqlite"

    def __init__(self, path: str | Path, retention: Retention | None = None) -> None:
        self.path = Path(path)
        self.retention = retention or Retention()
        self._lock = threading.Lock()
        marker = self.path.with_name(self.path.name + ".damaged")
        try:
            if marker.exists():
                raise StoreDamaged(f"the run store {self.path} was found damaged while in use")
            self._open()
        except (sqlite3.DatabaseError, StoreDamaged) as exc:
            failure = exc if isinstance(exc, StoreDamaged) else self.failure(exc)
            if not isinstance(failure, StoreDamaged):
                raise failure or exc from None
            self._move_aside(failure)
            marker.unlink(missing_ok=True)
            self.damaged = False
            self._open()

    def _open(self) -> None:
        self._conn = _connect(self.path, autocommit=True)
        self._conn.row_factory = sqlite3.Row
        try:
            self._migrate(MIGRATIONS)
            saver = SqliteSaver(_connect(self.path), serde=checkpoint_serde())
            self.checkpointer = saver
            saver.setup()
            if self.path.stat().st_size <= CONVERT_UP_TO_BYTES:
                self.compact(only_if_needed=True)
            self.mark_interrupted()
        except BaseException:
            self.close()
            raise

    def _move_aside(self, failure: StoreDamaged) -> None:
        aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in COMPANIONS:
            if self.path.with_name(self.path.name + suffix).exists():
                self.path.with_name(self.path.name + suffix).replace(aside.with_name(aside.name + suffix))
        log.warning("%s; moved it to %s and started a new run store", failure, aside)

    def failure(self, exc: BaseException) -> BoundloopError | None:
        failure = self._refused(sqlite_failure(exc, self.path, "run store", REMEDY))
        if isinstance(failure, StoreDamaged) and not self.damaged:
            self.damaged = True  # runs go unrecorded from now on; the next open replaces the file
            self.path.with_name(self.path.name + ".damaged").touch(mode=FILE_MODE)
        return failure

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """SQLite's errors as the clear ones they stand for (a full disk, a damaged file)."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            failure = self.failure(exc)
            if failure is None:
                raise
            raise failure from exc

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
        with self._lock, self._translated():
            self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _reclaim(self) -> None:
        with self._lock, self._translated():  # the pragma frees a page per step: executescript runs it to the end
            self._conn.executescript("PRAGMA incremental_vacuum;")

    @contextmanager
    def _transaction(self) -> Iterator[Sql]:
        def sql(statement: str, *params: Any) -> list[dict[str, Any]]:
            return [dict(row) for row in self._conn.execute(statement, params).fetchall()]

        with self._lock, self._translated():
            self._conn.execute("BEGIN IMMEDIATE")  # the write lock now: two processes migrating wait in turn
            try:
                yield sql
            except BaseException:
                if self._conn.in_transaction:  # SQLite rolls back itself after a full disk or an I/O error
                    self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        with self._lock, self._translated():
            self._conn.execute(sql, params)

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._lock, self._translated():
            return [dict(row) for row in self._conn.execute(sql, params).fetchall()]

    def _json(self, text: str) -> Any:
        return text

    def close(self) -> None:
        self._conn.close()
        if hasattr(self, "checkpointer"):
            self.checkpointer.conn.close()  # type: ignore[attr-defined]
