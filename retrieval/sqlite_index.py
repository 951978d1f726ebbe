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
from boundloop.policies.errors import StoreDamaged
from boundloop.retrieval.backend import Applied, Candidate, StoredChunk, StoredDocument, WriteBatch
from boundloop.retrieval.errors import IndexStoreError, SearchTimeout
from boundloop.retrieval.private_files import private_database, private_folder
from boundloop.retrieval.query_terms import search_terms
from boundloop.retrieval.sqlite_failures import clear_sqlite_errors
from boundloop.retrieval.sqlite_schema import DAMAGED_REMEDY, INDEX_FILE, connect
from boundloop.retrieval.sqlite_writes import group_tokens, write_acl, write_document
from boundloop.retrieval.titles import TitleLexicon
from boundloop.retrieval.vector_cache import VectorCache
from boundloop.retrieval.write_plan import batch_doc_ids, reconcile

_clear_errors = clear_sqlite_errors("index", DAMAGED_REMEDY)
KEYWORD_SQL = (
    "SELECT rowid, bm25(chunks_fts, 2.0, 1.0, 0.0) AS s FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?"
)
DEADLINE_CHECK_STEPS = 20_000  # SQLite VM instructions between two looks at a timed query's deadline
_STORED_COLUMNS = "doc_id, content_hash, acl, source, origin"


def _stored(rows: list[tuple[str, str, str, str, str]]) -> dict[str, StoredDocument]:
    return {doc_id: StoredDocument(digest, tuple(json.loads(acl)), source, origin)
            for doc_id, digest, acl, source, origin in rows}


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
                f"SELECT chunk_id, doc_id, title, text, source, page, acl FROM chunks WHERE chunk_id IN ({marks})",
                chunk_ids,
            ).fetchall()
        found: dict[str, StoredChunk] = {}
        for chunk_id, doc_id, title, text, source, page, acl in rows:
            groups = frozenset(json.loads(acl))
            if access.permits(groups):
                found[chunk_id] = StoredChunk(chunk_id, doc_id, title, text, source, page, groups)
        return found

    @_clear_errors
    def stored_documents(self) -> dict[str, StoredDocument]:
        with self._lock:
            rows = self._conn.execute(f"SELECT {_STORED_COLUMNS} FROM documents").fetchall()
        return _stored(rows)

    def _stored_now(self, doc_ids: list[str]) -> dict[str, StoredDocument]:
        """The stored documents among `doc_ids`, read on the main connection (inside the caller's transaction)."""
        rows = []
        for start in range(0, len(doc_ids), 500):
            part = doc_ids[start : start + 500]
            rows += self._conn.execute(
                f"SELECT {_STORED_COLUMNS} FROM documents WHERE doc_id IN ({','.join('?' * len(part))})", part
            ).fetchall()
        return _stored(rows)

    @_clear_errors
    def stats(self) -> dict[str, int]:
        with self._lock:
            documents = self._conn.execute("SELECT count(*) FROM documents").fetchone()[0]
            chunks = self._conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        return {"documents": documents, "chunks": chunks}

    @_clear_errors
    def apply(self, batch: WriteBatch, encoder_name: str | None) -> Applied:
        """Apply a whole batch in one transaction: on any error the index is exactly as before.

        A damaged index is never written to: its integrity is checked before the first write.
        """
        with self._lock:
            conn = self._conn
            if not self._checked:
                problems = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
                if problems != ["ok"]:
                    raise StoreDamaged(f"the index {self.folder / INDEX_FILE} is damaged ({problems[0]}): "
                                       f"{DAMAGED_REMEDY}; nothing was written")
                self._checked = True
            conn.execute("BEGIN IMMEDIATE")
            try:
                batch, applied = reconcile(batch, self._stored_now(batch_doc_ids(batch)))
                if batch.upserts and encoder_name:
                    self._check_encoder(encoder_name, batch)
                for doc_id in batch.deletes:
                    conn.execute("DELETE FROM documents WHERE doc_id=?", (doc_id,))
                for update in batch.acl_updates:
                    write_acl(conn, update)
                for write in batch.upserts:
                    write_document(conn, write)
                if batch.upserts or batch.deletes or batch.acl_updates:
                    conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key='generation'")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # SQLite rolls back itself after a full disk or an I/O error
                    conn.execute("ROLLBACK")
                raise
        return applied

    def _check_encoder(self, encoder_name: str, batch: WriteBatch) -> None:
        stored = self._meta("encoder")
        if stored is not None and stored != encoder_name:
            raise IndexStoreError(f"index was built with encoder {stored!r}, not {encoder_name!r}: use a new --index")
        if stored is None:
            dimension = batch.upserts[0].vectors.shape[1]
            self._conn.execute("INSERT INTO meta VALUES ('encoder', ?), ('dimension', ?)", (encoder_name, dimension))

    def close(self) -> None:
        with self._lock, self._cache_lock:
            self._conn.close()
            self._meta_conn.close()


