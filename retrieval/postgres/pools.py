"""Connection pools that fail fast and clearly when the database is down."""

from __future__ import annotations

from collections.abc import Callable

import psycopg
from psycopg_pool import ConnectionPool

from boundloop.retrieval.postgres.errors import database_errors
from boundloop.retrieval.postgres.settings import PgSettings

ConnectionHook = Callable[[psycopg.Connection], None]


def open_pool(
    url: str, where: str, settings: PgSettings, configure: ConnectionHook | None = None,
    check: ConnectionHook | None = None, statement_timeout_ms: int = 0,
) -> ConnectionPool:
    """A pool whose first connection is made now: an unreachable server raises `IndexUnavailableError` here.

    `check` runs once on a first, direct connection (before any pooled one is configured); `configure` runs on
    every pooled connection. `statement_timeout_ms` bounds each statement (0: no bound, for ingest batches).
    """
    pool = ConnectionPool(
        url,
        min_size=1,
        max_size=settings.pool_max,
        kwargs={
            "connect_timeout": settings.connect_timeout_s,
            "options": f"-c statement_timeout={int(statement_timeout_ms)}",
            "application_name": "boundloop",
            # no server-side prepared statements: a cached plan would ignore the planner settings that each
            # dense search sets for its transaction (HNSW or exact), silently running the other plan
            "prepare_threshold": None,
        },
        configure=configure,
        check=ConnectionPool.check_connection,  # a server restart costs one failed check, not one failed search
        timeout=settings.checkout_timeout_s,
        reconnect_timeout=settings.checkout_timeout_s,
        open=False,
        name=f"boundloop {where}",
    )
    try:
        with database_errors(where):
            # one direct attempt first: it fails within the connect timeout with the real reason (refused,
            # no such role), where a pool would retry in the background and time out without one
            with psycopg.connect(url, connect_timeout=settings.connect_timeout_s) as conn:
                if check is not None:
                    check(conn)
            pool.open(wait=True, timeout=settings.connect_timeout_s + 1)
    except BaseException:
        pool.close(timeout=0)
        raise
    return pool
