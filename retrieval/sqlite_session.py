"""An ingest's write session on the embedded index: one transaction across its batches, on a connection of its own.

The session writes on the index's writer connection, never on the one searches use: a search between two batches
must see the index as it was, not the rows of a transaction that may yet roll back. The transaction begins with
the first batch (`BEGIN IMMEDIATE`: SQLite's write lock), so an ingest that changes nothing never takes the lock,
and a thread lock keeps two sessions of one process off the writer connection at the same time.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

from boundloop.policies.errors import StoreDamaged
from boundloop.retrieval.backend import Applied, StoredDocument, WriteBatch
from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.sqlite_failures import sqlite_failure
from boundloop.retrieval.sqlite_schema import DAMAGED_REMEDY
from boundloop.retrieval.sqlite_writes import write_acl, write_document
from boundloop.retrieval.write_plan import batch_doc_ids, reconcile

_SQLITE_BUSY = 5
_STORED_SQL = "SELECT doc_id, content_hash, acl, source, origin FROM documents"


def stored_rows(rows: list[tuple[str, str, str, str, str]]) -> dict[str, StoredDocument]:
    return {doc_id: StoredDocument(digest, tuple(json.loads(acl)), source, origin)
            for doc_id, digest, acl, source, origin in rows}


def stored_among(conn: sqlite3.Connection, doc_ids: list[str]) -> dict[str, StoredDocument]:
    """The stored documents among `doc_ids`, as `conn` sees them (inside its transaction)."""
    rows = []
    for start in range(0, len(doc_ids), 500):
        part = doc_ids[start : start + 500]
        rows += conn.execute(f"{_STORED_SQL} WHERE doc_id IN ({','.join('?' * len(part))})", part).fetchall()
    return stored_rows(rows)


class SqliteWriteSession:
    """The `WriteSession` of `SqliteIndex.write_session`; the index commits or rolls it back when its block ends."""

    def __init__(self, conn: sqlite3.Connection, lock: threading.Lock, path: Path, encoder_name: str | None,
                 checked: bool) -> None:
        self._conn = conn
        self._lock = lock
        self._path = path
        self._encoder_name = encoder_name
        self.checked = checked
        """Whether the index's integrity was checked (once, before its first write)."""
        self._begun = False
        self._changed = False

    def apply(self, batch: WriteBatch) -> Applied:
        try:
            self._begin()
            batch, applied = reconcile(batch, stored_among(self._conn, batch_doc_ids(batch)))
            if batch.upserts and self._encoder_name:
                self._bind_encoder(self._encoder_name, int(batch.upserts[0].vectors.shape[1]))
            for doc_id in batch.deletes:
                self._conn.execute("DELETE FROM documents WHERE doc_id=?", (doc_id,))
            for update in batch.acl_updates:
                write_acl(self._conn, update)
            for write in batch.upserts:
                write_document(self._conn, write)
        except sqlite3.DatabaseError as exc:
            raise self._failure(exc) from None
        self._changed = self._changed or bool(batch.upserts or batch.deletes or batch.acl_updates)
        return applied

    def _begin(self) -> None:
        if self._begun:
            return
        self._lock.acquire()
        self._begun = True
        if not self.checked:
            problems = [row[0] for row in self._conn.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise StoreDamaged(f"the index {self._path} is damaged ({problems[0]}): {DAMAGED_REMEDY}; "
                                   "nothing was written")
            self.checked = True
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF == _SQLITE_BUSY:
                raise IndexStoreError(f"another ingest is writing to the index {self._path}: nothing was written; "
                                      "run this one again when it has finished") from None
            raise

    def _bind_encoder(self, encoder_name: str, dimension: int) -> None:
        row = self._conn.execute("SELECT value FROM meta WHERE key='encoder'").fetchone()
        if row is not None and row[0] != encoder_name:
            raise IndexStoreError(f"index was built with encoder {row[0]!r}, not {encoder_name!r}: use a new --index")
        if row is None:
            self._conn.execute("INSERT INTO meta VALUES ('encoder', ?), ('dimension', ?)", (encoder_name, dimension))

    def _failure(self, exc: sqlite3.DatabaseError) -> BaseException:
        return sqlite_failure(exc, self._path, "index", DAMAGED_REMEDY) or exc

    def commit(self) -> None:
        """Make every batch visible at once (one new generation); then the session is over."""
        if not self._begun:
            return
        try:
            if self._changed:
                self._conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key='generation'")
            self._conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            self.rollback()
            raise self._failure(exc) from None
        self._end()

    def rollback(self) -> None:
        """Undo every batch; the index is exactly as before the session."""
        if not self._begun:
            return
        try:
            if self._conn.in_transaction:  # SQLite rolls back itself after a full disk or an I/O error
                self._conn.execute("ROLLBACK")
        finally:
            self._end()

    def _end(self) -> None:
        self._begun = False
        self._lock.release()
