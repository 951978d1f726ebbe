"""The SQL both run stores share: what each supplies (a connection, a transaction, JSON), and the migrations.

The registry's statements are written once, with `?` placeholders, in the classes built on this one
(`runstore.store`, `runstore.conversations`, `runstore.feedback`); SQLite and PostgreSQL each implement the four
connection methods.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from boundloop.retrieval.migration_runner import Migration, VersionTable, migrate

Sql = Callable[..., list[dict[str, Any]]]
"""Runs one statement, `?` placeholders, inside a transaction; returns its rows (none for a change)."""
VERSIONS = VersionTable(create="CREATE TABLE IF NOT EXISTS boundloop_schema (version INTEGER NOT NULL)",
                        read="SELECT max(version) AS version FROM boundloop_schema",
                        write="INSERT INTO boundloop_schema (version) VALUES ({version})")


class SqlStore(ABC):
    """A database the run store's SQL runs on."""

    def _migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply, in order and each in one transaction, the migrations this database has not had yet.

        `boundloop_schema` records the versions applied (`retrieval.migration_runner`, the index's runner too). A
        new table or column is one more migration at the end of `runstore.schema.migrations`.
        """
        migrate(self._transaction, migrations, VERSIONS)

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[Sql]:
        """A transaction that other writers wait for; its `Sql` runs statements inside it."""

    @abstractmethod
    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> None: ...

    @abstractmethod
    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]: ...

    @abstractmethod
    def _json(self, text: str) -> Any:
        """A JSON document as this store's driver sends it."""
