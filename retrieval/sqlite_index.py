"""The embedded default index: one SQLite file holding BM25 full text (FTS5), dense vectors and the ACLs."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import Applied, Candidate, StoredChunk, StoredDocument, WriteBatch
from boundloop.retrieval.errors import IndexStoreError, SearchTimeout
from boundloop.retrieval.private_files import private_database, private_folder
from boundloop.retrieval.query_terms import search_terms
from boundloop.retrieval.sqlite_failures import clear_sqlite_errors
from boundloop.retrieval.sqlite_schema import DAMAGED_REMEDY, INDEX_FILE, connect, has_column
from boundloop.retrieval.sqlite_session import SqliteWriteSession, stored_rows
from boundloop.retrieval.sqlite_writes import group_tokens
from boundloop.retrieval.titles import TitleLexicon
from boundloop.retrieval.typed_units import stored_units
from boundloop.retrieval.vector_cache import VectorCache

_clear_errors = clear_sqlite_errors("index", DAMAGED_REMEDY)
KEYWORD_SQL = (
    "SELECT rowid, bm25(chunks_fts, 2.0, 1.0, 0.0) AS s FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?"
)
DEADLINE_CHECK_STEPS = 20_000  # SQLite VM instructions between two looks at a timed query's deadline


class SqliteIndex:
    """An index folder on disk. Writes are single transactions; readers see the old or the new state, never half."""

    def __init__(self, folder: str | Path, create: bool = False) -> None:
        self.folder = Path(folder)
        path, wal = self.folder / INDEX_FILE, self.folder / (INDEX_FILE + "-wal")
        self.database_path = path  # named by the clear errors of `_clear_errors`
        self.read_only = not create and path.exists() and not os.access(self.folder, os.W_OK)
        if create:
            private_folder(self.folder)
        elif not path.exists():
            raise IndexStoreError(f"no index at {self.folder} (run `boundloop ingest PATH --index {self.folder}`)")
        elif self.read_only and wal.exists() and wal.stat().st_size:
            raise IndexStoreError(f"the index in the read-only folder {self.folder} has changes still in "
                                  f"{INDEX_FILE}-wal: open it once where it can be written, then copy it")
        elif not self.read_only:
            private_folder(self.folder)  # tightens an index made by an older version
        if not self.read_only:
            private_database(path)
        self._conn = connect(str(path), create=create, read_only=self.read_only)
        self._meta_conn = connect(str(path), create=False, read_only=self.read_only)
        # a read-only index written before chunks named their sheet (kept their markdown, their document's date,
        # their units) is searched as it is
        self._sheet = "sheet" if has_column(self._conn, "chunks", "sheet") else "NULL"
        self._markdown = "markdown" if has_column(self._conn, "chunks", "markdown") else "''"
        self._dated = "document_date" if has_column(self._conn, "chunks", "document_date") else "NULL"
        self._units = "units" if has_column(self._conn, "chunks", "units") else "NULL"
        self._write_conn: sqlite3.Connection | None = None  # opened by the first write session
        self._write_lock = threading.Lock()  # one write session at a time on it
        self._checked = False  # integrity, before the first write
        self._lock = threading.RLock()
        self._cache_lock = threading.Lock()
        self._cache: VectorCache | None = None
        self._titles: TitleLexicon | None = None

    @property
    def encoder_name(self) -> str | None:
        return self._meta("encoder")

    @_clear_errors
    def _meta(self, key: str) -> str | None:
        # every use of the main connection holds the lock: a thread blocked on SQLite's connection mutex while
        # holding the GIL would deadlock with the keyword query's deadline handler (it needs the GIL to run)
        with self._lock:
            row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def _group_tokens(self, groups: frozenset[str]) -> list[str]:
        return group_tokens(self._conn, groups)

    @_clear_errors
    def keyword_candidates(
        self, query: str, access: AccessFilter, limit: int, deadline: float | None = None
    ) -> list[Candidate]:
        """BM25 over title and text; the ACL is a clause of the same FTS query, so ranking sees only permitted rows."""
        with self._connection_until(deadline):
            tokens = self._group_tokens(access.groups)
            terms = search_terms(query)
            if not tokens or not terms or limit <= 0:
                return []
            match = "acl_tokens : ({}) AND {{title text}} : ({})".format(
                " OR ".join(tokens), " OR ".join(f'"{t}"' for t in terms)
            )
            # rank inside FTS5 alone (no join: measured 2x faster), then name the winners
            ranked = self._conn.execute(KEYWORD_SQL, (match, limit)).fetchall()
            if not ranked:
                return []
            marks = ",".join("?" * len(ranked))
            names = dict(self._conn.execute(
                f"SELECT id, chunk_id FROM chunks WHERE id IN ({marks})", [rowid for rowid, _ in ranked]
            ).fetchall())
        return [Candidate(names[rowid], -score) for rowid, score in ranked if rowid in names]

    @contextmanager
    def _connection_until(self, deadline: float | None) -> Iterator[None]:
        """The connection, held; with a deadline, SQLite abandons the statements still running when it passes.

        A search whose caller has timed out must not keep the connection (and the searches queued on it) busy.
        """
        if deadline is None:
            with self._lock:
                yield
            return
        if not self._lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise SearchTimeout("the index was busy until the search's deadline")
        self._conn.set_progress_handler(lambda: time.monotonic() > deadline, DEADLINE_CHECK_STEPS)
        try:
            yield
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:  # "interrupted" by the progress handler
                raise SearchTimeout("keyword search stopped at its deadline") from None
            raise
        finally:
            self._conn.set_progress_handler(None, 0)
            self._lock.release()

    @_clear_errors
    def dense_candidates(self, vector: np.ndarray, access: AccessFilter, limit: int) -> list[Candidate]:
        """Exact cosine search among the permitted rows of the in-memory vector cache."""
        return self._vectors().search(vector, access, limit)

    def _vectors(self) -> VectorCache:
        # the generation is read on a connection of its own, so dense search never waits on a keyword query
        with self._cache_lock:
            generation = self._meta_value("generation") or "0"
            if self._cache is None or self._cache.generation != generation:
                dimension = int(self._meta_value("dimension") or 0)
                self._cache = VectorCache.load(self._meta_conn, generation, dimension)
            return self._cache

    @_clear_errors
    def title_candidates(self, names: list[str], access: AccessFilter, limit: int) -> list[Candidate]:
        """Lead chunks of permitted documents titled by one of the names, first name first."""
        if access.matches_nothing or not names:
            return []
        return [Candidate(chunk_id, score) for chunk_id, score in self._lexicon().lookup(names, access.permits, limit)]

    def _lexicon(self) -> TitleLexicon:
        with self._cache_lock:
            generation = self._meta_value("generation") or "0"
            if self._titles is None or self._titles.generation != generation:
                rows = self._meta_conn.execute(
                    "SELECT d.doc_id, d.title, c.chunk_id, d.acl FROM documents d "
                    "JOIN chunks c ON c.doc_id = d.doc_id AND c.ordinal = 0"
                ).fetchall()
                documents = [(doc_id, title, lead, frozenset(json.loads(acl))) for doc_id, title, lead, acl in rows]
                self._titles = TitleLexicon(generation, documents)
            return self._titles

    @_clear_errors
    def _meta_value(self, key: str) -> str | None:
        row = self._meta_conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    @_clear_errors
    def load_chunks(self, chunk_ids: list[str], access: AccessFilter) -> dict[str, StoredChunk]:
        """The chunks by id, re-checked against the filter (defence in depth: a stray id yields nothing)."""
        if not chunk_ids:
            return {}
        marks = ",".join("?" * len(chunk_ids))
        with self._lock:
            rows = self._conn.execute(
                f"SELECT chunk_id, doc_id, title, text, source, page, acl, {self._sheet}, {self._markdown}, "
                f"{self._dated}, {self._units} FROM chunks WHERE chunk_id IN ({marks})",
                chunk_ids,
            ).fetchall()
        found: dict[str, StoredChunk] = {}
        for chunk_id, doc_id, title, text, source, page, acl, sheet, markdown, dated, units in rows:
            groups = frozenset(json.loads(acl))
            if access.permits(groups):
                found[chunk_id] = StoredChunk(chunk_id, doc_id, title, text, source, page, groups, sheet, markdown,
                                              dated, stored_units(units, chunk_id))
        return found

    @_clear_errors
    def stored_documents(self) -> dict[str, StoredDocument]:
        with self._lock:
            rows = self._conn.execute("SELECT doc_id, content_hash, acl, source, origin FROM documents").fetchall()
        return stored_rows(rows)

    @_clear_errors
    def stats(self) -> dict[str, int]:
        with self._lock:
            documents = self._conn.execute("SELECT count(*) FROM documents").fetchone()[0]
            chunks = self._conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        return {"documents": documents, "chunks": chunks}

    def apply(self, batch: WriteBatch, encoder_name: str | None) -> Applied:
        """Apply a whole batch in one transaction: on any error the index is exactly as before.

        A damaged index is never written to: its integrity is checked before the first write.
        """
        with self.write_session(encoder_name) as session:
            return session.apply(batch)

    @contextmanager
    def write_session(self, encoder_name: str | None) -> Iterator[SqliteWriteSession]:
        """Batches applied in turn in one transaction on the writer connection (see `sqlite_session`)."""
        session = SqliteWriteSession(self._writer(), self._write_lock, self.folder / INDEX_FILE, encoder_name,
                                     self._checked)
        try:
            yield session
        except BaseException:
            session.rollback()
            raise
        finally:
            self._checked = self._checked or session.checked
        session.commit()

    @_clear_errors
    def _writer(self) -> sqlite3.Connection:
        with self._write_lock:
            if self._write_conn is None:
                self._write_conn = connect(str(self.database_path), create=False, read_only=self.read_only)
            return self._write_conn

    def close(self) -> None:
        with self._lock, self._cache_lock, self._write_lock:
            self._conn.close()
            self._meta_conn.close()
            if self._write_conn is not None:
                self._write_conn.close()


