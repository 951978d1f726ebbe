"""The one migration runner: steps in order, each once, each in its own transaction, recorded in a version table."""

from __future__ import annotations

import sqlite3

import pytest

from boundloop.retrieval.migration_runner import Migration, VersionTable, migrate
from boundloop.retrieval.sqlite_schema import transactions

TABLE = VersionTable(create="CREATE TABLE IF NOT EXISTS versions (version INTEGER NOT NULL, name TEXT NOT NULL)",
                     read="SELECT max(version) FROM versions",
                     write="INSERT INTO versions VALUES ({version}, {name})")
STEPS = [
    Migration(1, "notes", ("CREATE TABLE notes (id INTEGER PRIMARY KEY)",)),
    Migration(2, "a note's text", ("ALTER TABLE notes ADD COLUMN text TEXT",)),
]


def test_an_old_database_gets_the_later_steps_once_each_in_order(tmp_path):
    conn = sqlite3.connect(tmp_path / "db", isolation_level=None)
    assert migrate(transactions(conn), STEPS[:1], TABLE) == [1]  # a database at version 1
    conn.execute("INSERT INTO notes (id) VALUES (7)")
    later = [*STEPS, Migration(3, "the note's author's name", ("ALTER TABLE notes ADD COLUMN author TEXT",))]
    assert migrate(transactions(conn), later, TABLE) == [2, 3]
    assert migrate(transactions(conn), later, TABLE) == []  # its ALTERs would fail if run twice
    assert conn.execute("SELECT * FROM versions").fetchall() == [
        (1, "notes"), (2, "a note's text"), (3, "the note's author's name")]
    assert conn.execute("SELECT id, text, author FROM notes").fetchall() == [(7, None, None)]


def test_a_failing_step_leaves_the_steps_before_it_applied_and_itself_not_at_all(tmp_path):
    conn = sqlite3.connect(tmp_path / "db", isolation_level=None)
    broken = Migration(3, "broken", ("CREATE TABLE half (x INTEGER)", "ALTER TABLE nowhere ADD COLUMN y TEXT"))
    with pytest.raises(sqlite3.OperationalError):
        migrate(transactions(conn), [*STEPS, broken], TABLE)
    assert conn.execute("SELECT max(version) FROM versions").fetchone() == (2,)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name='half'").fetchone() is None
