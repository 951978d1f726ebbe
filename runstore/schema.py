"""The run store's tables, written once for both databases: each store names its column types.

Version n of the schema is the first n migrations applied (`RunStore._migrate`, through
`retrieval.migration_runner`); a new table or column is one more migration at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from boundloop.retrieval.migration_runner import Migration


@dataclass(frozen=True)
class ColumnTypes:
    """A database's names for a float, a boolean and a JSON document, and its function that builds a JSON object."""

    real: str
    boolean: str
    json: str
    json_object: str


def migrations(types: ColumnTypes) -> list[Migration]:
    """Every migration of the registry, in order."""
    steps: list[tuple[str, ...]] = [
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
        (  # 3: conversations; the conversation each run is a turn of, and what the turns it leaned on showed
            f"""CREATE TABLE IF NOT EXISTS boundloop_conversations (
                conversation_id TEXT PRIMARY KEY,
                owner TEXT NOT NULL,
                created_at {types.real} NOT NULL,
                updated_at {types.real} NOT NULL,
                title TEXT NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS boundloop_conversations_owner ON boundloop_conversations(owner, updated_at)",
            "ALTER TABLE boundloop_runs ADD COLUMN conversation_id TEXT",
            "ALTER TABLE boundloop_runs ADD COLUMN context_chunks TEXT",  # JSON: what a follow-up's context showed
            "CREATE INDEX IF NOT EXISTS boundloop_runs_conversation ON boundloop_runs(conversation_id, created_at)",
        ),
        (  # 4: the owner's feedback on a run, kept with the run (the latest rating wins)
            "ALTER TABLE boundloop_runs ADD COLUMN feedback_score INTEGER",
            "ALTER TABLE boundloop_runs ADD COLUMN feedback_comment TEXT",
            f"ALTER TABLE boundloop_runs ADD COLUMN feedback_at {types.real}",
        ),
        (  # 5: a run's usage as one JSON document, so that a new limit needs no column (old runs' usage moves in)
            f"ALTER TABLE boundloop_runs ADD COLUMN usage {types.json}",
            f"UPDATE boundloop_runs SET usage = {types.json_object}('hops', hops, 'retrieval_calls', retrieval_calls, "
            "'tokens', tokens, 'elapsed_ms', elapsed_ms) WHERE hops IS NOT NULL",
            *(f"ALTER TABLE boundloop_runs DROP COLUMN {column}"
              for column in ("hops", "tokens", "retrieval_calls", "elapsed_ms")),
        ),
    ]
    names = ("the run registry", "workers, retention and health", "conversations", "feedback", "usage as JSON")
    return [Migration(version, name, statements)
            for version, (name, statements) in enumerate(zip(names, steps, strict=True), start=1)]
