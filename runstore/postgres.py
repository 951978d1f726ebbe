"""The PostgreSQL run store: checkpoints (langgraph-checkpoint-postgres) and the registry on one connection pool.

Every worker and host that opens the same URL sees the same runs; a run started on one is readable from another.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import dict_row, tuple_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

from boundloop.policies.errors import BoundloopError, StoreUnwritable
from boundloop.policies.settings import settings
from boundloop.runstore.pooled_saver import PooledPostgresSaver
from boundloop.runstore.retention import Retention
from boundloop.runstore.schema import ColumnTypes, migrations
from boundloop.runstore.serde import checkpoint_serde
from boundloop.runstore.sql import Sql
from boundloop.runstore.store import RunStore

MIGRATIONS = migrations(ColumnTypes(real="DOUBLE PRECISION", boolean="BOOLEAN", json="JSONB",
                                       json_object="jsonb_build_object"))
# Workers start together; one advisory lock keeps their schema migrations from racing each other.
_SETUP_LOCK_KEY = 0x626F756E64  # "bound"
SETUP_TIMEOUT_S = 60.0


def _take_setup_lock(conn: psycopg.Connection) -> None:
    """Take the schema-setup lock, polling rather than blocking.

    A session blocked in pg_advisory_lock holds a snapshot, and the saver's CREATE INDEX CONCURRENTLY would wait
    for it while it waits for us: a deadlock PostgreSQL does not detect.
    """
    deadline = time.monotonic() + SETUP_TIMEOUT_S
    with conn.cursor(row_factory=tuple_row) as cursor:
        while True:
            row = cursor.execute("SELECT pg_try_advisory_lock(%s)", (_SETUP_LOCK_KEY,)).fetchone()
            if row is not None and row[0]:
                return
            if time.monotonic() > deadline:
                raise BoundloopError("timed out waiting for another worker to finish the checkpoint schema setup")
            time.sleep(0.1)


class PostgresRunStore(RunStore):
    """Saver and registry on one pool of autocommit connections; the tables are created or migrated once."""

    kind = "postgres"

    def __init__(self, url: str, pool_size: int | None = None, retention: Retention | None = None) -> None:
        self.retention = retention or Retention()
        size = pool_size or settings().pg_pool_size
        self._pool = ConnectionPool(
            url, min_size=1, max_size=size, open=True, timeout=30,
            kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        )
        try:
            self.checkpointer = PooledPostgresSaver(self._pool, serde=checkpoint_serde())
            with self._pool.connection() as conn:
                _take_setup_lock(conn)
                try:
                    self.checkpointer.setup()
                    self._migrate(MIGRATIONS)
                finally:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK_KEY,))
            self.mark_interrupted()
        except BaseException:
            self._pool.close()
            raise

    def failure(self, exc: BaseException) -> BoundloopError | None:
        """A full disk, or a database that cannot be reached: the store cannot write."""
        if isinstance(exc, psycopg.errors.DiskFull | psycopg.OperationalError | PoolTimeout):
            return self._refused(StoreUnwritable(f"cannot write the run store (PostgreSQL, BOUNDLOOP_CHECKPOINT_URL): "
                                                 f"{type(exc).__name__}; nothing was written"))
        return None

    @contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except (psycopg.Error, PoolTimeout) as exc:
            failure = self.failure(exc)
            if failure is None:
                raise
            raise failure from exc

    @contextmanager
    def _transaction(self) -> Iterator[Sql]:
        with self._translated(), self._pool.connection() as conn, conn.transaction(), \
                conn.cursor(row_factory=dict_row) as cursor:
            def sql(statement: str, *params: Any) -> list[dict[str, Any]]:
                cursor.execute(statement.replace("?", "%s"), params)
                return cursor.fetchall() if cursor.description else []

            yield sql

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        with self._translated(), self._pool.connection() as conn:
            conn.execute(sql.replace("?", "%s"), params)

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._translated(), self._pool.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute(sql.replace("?", "%s"), params).fetchall()

    def _reclaim(self) -> None:
        """PostgreSQL's autovacuum reuses the space of deleted rows."""

    def _json(self, text: str) -> Any:
        return Jsonb(text, dumps=lambda already_json: already_json)

    def close(self) -> None:
        self._pool.close()
