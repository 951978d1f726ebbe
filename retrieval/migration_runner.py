"""The one migration runner of every store: ordered steps, a version table, each step in its own transaction.

The index (SQLite `retrieval.sqlite_schema`, PostgreSQL `retrieval.postgres.migrations`) and the run store
(`runstore.sql`, on SQLite and PostgreSQL) hand it their steps, where they record their version, and a transaction
of their driver; it lives here, the lowest layer with a store, so that both can use it.

A step applies only if the version table, read inside that step's transaction, is older than it: two processes
opening one database at once (workers starting together) apply each step once, whoever is first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

Run = Callable[[str], Sequence[Any]]
"""Runs one trusted statement without parameters inside the transaction; returns its rows (none for a change)."""


@dataclass(frozen=True)
class Migration:
    """Version `version` of a schema: what `statements` add to the version before it."""

    version: int
    name: str
    statements: tuple[str, ...]


@dataclass(frozen=True)
class VersionTable:
    """Where a database records its schema version.

    `read` yields it (one row, one column; NULL or no row is 0), `write` records a step (`{version}` and `{name}`
    are filled in), `create` makes the table if it is missing.
    """

    read: str
    write: str
    create: str | None = None


def migrate(transaction: Callable[[], AbstractContextManager[Run]], steps: Sequence[Migration],
            table: VersionTable, prepare: Sequence[str] = ()) -> list[int]:
    """Apply, in order and each in one transaction, the steps the database has not had; return their versions.

    `prepare` runs first in every transaction (PostgreSQL: take the migration lock, create the schema).
    """
    applied: list[int] = []
    current: int | None = None
    for step in sorted(steps, key=lambda s: s.version):
        if current is not None and step.version <= current:
            continue
        with transaction() as run:
            for statement in prepare:
                run(statement)
            if table.create:
                run(table.create)
            current = _version(run(table.read))
            if step.version <= current:
                continue
            for statement in step.statements:
                run(statement)
            run(table.write.format(version=int(step.version), name=_literal(step.name)))
            applied.append(step.version)
            current = step.version
    return applied


def _version(rows: Sequence[Any]) -> int:
    if not rows:
        return 0
    value = rows[0]["version"] if isinstance(rows[0], Mapping) else rows[0][0]
    return int(value or 0)


def _literal(text: str) -> str:
    """A SQL string literal (standard quoting, the same in SQLite and PostgreSQL)."""
    return "'" + text.replace("'", "''") + "'"
