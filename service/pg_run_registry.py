"""The run registry in PostgreSQL, beside the checkpoints, so every worker and host sees the same owners and results.

Same table and meaning as the SQLite `graph.registry.RunRegistry`; it never holds anything the loop's state holds.
"""

from __future__ import annotations

import time
from typing import Any

from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from domain.result import RunResult

DDL = (
    """
CREATE TABLE IF NOT EXISTS boundloop_runs (
    run_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    question TEXT NOT NULL,
    status TEXT,
    query_class TEXT,
    complete BOOLEAN,
    stop_reason TEXT,
    hops INTEGER, tokens INTEGER, retrieval_calls INTEGER, elapsed_ms INTEGER,
    result JSONB
)""",
    "CREATE INDEX IF NOT EXISTS boundloop_runs_owner ON boundloop_runs(owner, created_at)",
)
_STATS_COLUMNS = "query_class, status, complete, stop_reason, hops, tokens, retrieval_calls, elapsed_ms"


class PostgresRunRegistry:
    """A `RunStore` on a shared psycopg pool of autocommit connections."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def start(self, run_id: str, owner: str, question: str) -> None:
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO boundloop_runs (run_id, owner, created_at, question) VALUES (%s, %s, %s, %s)",
                (run_id, owner, time.time(), question),
            )

    def finish(self, run_id: str, result: RunResult) -> None:
        usage = result.usage
        with self._pool.connection() as conn:
            conn.execute(
                "UPDATE boundloop_runs SET status=%s, query_class=%s, complete=%s, stop_reason=%s, hops=%s, "
                "tokens=%s, retrieval_calls=%s, elapsed_ms=%s, result=%s WHERE run_id=%s",
                (result.status, result.query_class, result.complete, result.stop_reason, usage.hops, usage.tokens,
                 usage.retrieval_calls, usage.elapsed_ms, Jsonb(result.model_dump(mode="json")), run_id),
            )

    def _rows(self, query: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._pool.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute(query, params).fetchall()

    def owner(self, run_id: str) -> str | None:
        rows = self._rows("SELECT owner FROM boundloop_runs WHERE run_id=%s", (run_id,))
        return rows[0]["owner"] if rows else None

    def result(self, run_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT result FROM boundloop_runs WHERE run_id=%s", (run_id,))
        return dict(rows[0]["result"]) if rows and rows[0]["result"] is not None else None

    def finished_runs(self) -> list[dict[str, Any]]:
        rows = self._rows(f"SELECT {_STATS_COLUMNS} FROM boundloop_runs WHERE status IS NOT NULL")
        return [{**row, "complete": int(bool(row["complete"]))} for row in rows]

    def close(self) -> None:
        """The pool belongs to whoever opened it; nothing to release here."""
