"""The run store's tables, written once for both databases: each store names its column types.

Version n of the schema is the first n migrations applied (`RunStore._migrate`); a new table or column is one more
migration at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from runstore.store import Migration


@dataclass(frozen=True)
class ColumnTypes:
    """A database's names for a float, a boolean and a JSON document."""

    real: str
    boolean: str
    json: str


def migrations(types: ColumnTypes) -> list[Migration]:
    """Every migration of the registry, in order."""
    return [
        (  # 1: the run registry (IF NOT EXISTS: stores made before migrations were counted already have it)
            f"""CREATE TABLE IF NOT EXISTS boundloop_runs (
                run_id TEXT PRIMARY KEY,
                owner TEXT NOT NULL,
                created_at {types.real} NOT NULL,
                question TEXT NOT NULL,
                status TEXT,
                query_class TEXT,
                complete {types.boolean},
                stop_reason TEXT,
                hops INTEGER, tokens INTEGER, retrieval_calls INTEGER, elapsed_ms INTEGER,
                result {types.json}
            )""",
            "CREATE INDEX IF NOT EXISTS boundloop_runs_owner ON boundloop_runs(owner, created_at)",
        ),
        (  # 2: the process that runs each run (to tell a crash), runs by age (retention), a row /healthz writes
            "ALTER TABLE boundloop_runs ADD COLUMN worker TEXT",
            "CREATE INDEX IF NOT EXISTS boundloop_runs_created ON boundloop_runs(created_at)",
            f"CREATE TABLE IF NOT EXISTS boundloop_health (id INTEGER PRIMARY KEY, checked_at {types.real} NOT NULL)",
            "INSERT INTO boundloop_health (id, checked_at) VALUES (1, 0)",
        ),
    ]
