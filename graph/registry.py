"""The run registry: who owns each run and how it ended, for `stats`, ownership checks and `/runs`.

It lives beside the checkpoints but apart from them: the loop's state and trace never hold the user.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Protocol

from domain.result import RunResult

_DDL = """
CREATE TABLE IF NOT EXISTS boundloop_runs (
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
);
CREATE INDEX IF NOT EXISTS boundloop_runs_owner ON boundloop_runs(owner, created_at);
"""


class RunRecorder(Protocol):
    """What the runner needs of a registry: `RunRegistry` here, or the service's PostgreSQL registry."""

    def start(self, run_id: str, owner: str, question: str) -> None: ...

    def finish(self, run_id: str, result: RunResult) -> None: ...


class RunRegistry:
    """A small SQLite table of runs; safe to share between threads of one process and between processes."""

    def __init__(self, path: str | Path) -> None:
        self._conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.executescript(_DDL)
        self._lock = threading.Lock()

    def start(self, run_id: str, owner: str, question: str) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT INTO boundloop_runs (run_id, owner, created_at, question) VALUES (?,?,?,?)",
                (run_id, owner, time.time(), question),
            )

    def finish(self, run_id: str, result: RunResult) -> None:
        usage = result.usage
        with self._lock:
            self._conn.execute(
                "UPDATE boundloop_runs SET status=?, query_class=?, complete=?, stop_reason=?, hops=?, tokens=?, "
                "retrieval_calls=?, elapsed_ms=?, result=? WHERE run_id=?",
                (result.status, result.query_class, int(result.complete), result.stop_reason, usage.hops,
                 usage.tokens, usage.retrieval_calls, usage.elapsed_ms, result.model_dump_json(), run_id),
            )

    def owner(self, run_id: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT owner FROM boundloop_runs WHERE run_id=?", (run_id,)).fetchone()
        return row[0] if row else None

    def result(self, run_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._conn.execute("SELECT result FROM boundloop_runs WHERE run_id=?", (run_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    def finished_runs(self) -> list[dict[str, Any]]:
        with self._lock:
            cursor = self._conn.execute(
                "SELECT query_class, status, complete, stop_reason, hops, tokens, retrieval_calls, elapsed_ms "
                "FROM boundloop_runs WHERE status IS NOT NULL"
            )
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def close(self) -> None:
        self._conn.close()
