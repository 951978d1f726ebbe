"""PostgreSQL checkpoints (langgraph-checkpoint-postgres) and the run registry on one connection pool per process."""

from __future__ import annotations

import os
import time

import psycopg
from psycopg.rows import dict_row, tuple_row
from psycopg_pool import ConnectionPool

from graph.checkpoints import checkpoint_serde
from policies.errors import BoundloopError
from service.persistence import Persistence
from service.pg_run_registry import DDL, PostgresRunRegistry
from service.pooled_saver import PooledPostgresSaver

# Workers start together; one advisory lock keeps their schema migrations from racing each other.
_SETUP_LOCK_KEY = 0x626F756E64  # "bound"
DEFAULT_POOL_SIZE = 8
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


def open_postgres(url: str, pool_size: int | None = None) -> Persistence:
    """Open the pool, create or migrate the tables once, and hand back saver and registry on the same pool."""
    size = pool_size or int(os.environ.get("BOUNDLOOP_PG_POOL_SIZE", DEFAULT_POOL_SIZE))
    pool = ConnectionPool(
        url, min_size=1, max_size=size, open=True, timeout=30,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
    )
    try:
        saver = PooledPostgresSaver(pool, serde=checkpoint_serde())
        with pool.connection() as conn:
            _take_setup_lock(conn)
            try:
                saver.setup()
                for statement in DDL:
                    conn.execute(statement)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK_KEY,))
    except BaseException:
        pool.close()
        raise
    return Persistence("postgres", saver, PostgresRunRegistry(pool), pool.close)
