"""`PostgresIndex`: the `IndexBackend` on PostgreSQL, with a reader pool for searches and a writer pool for ingest."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import psycopg
from psycopg_pool import ConnectionPool

from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import Applied, Candidate, StoredChunk, StoredDocument, WriteBatch
from boundloop.retrieval.errors import IndexStoreError, SearchTimeout
from boundloop.retrieval.postgres import dense, keyword, migrations, titles, writer
from boundloop.retrieval.postgres.dense import DenseTuning
from boundloop.retrieval.postgres.errors import database_errors
from boundloop.retrieval.postgres.pools import open_pool
from boundloop.retrieval.postgres.session import check_reader_confined, entitled_transaction, set_local
from boundloop.retrieval.postgres.settings import PgSettings
from boundloop.retrieval.postgres.vectors import register_vector
from boundloop.retrieval.typed_units import stored_units

_LOAD_SQL = """
SELECT chunk_id, doc_id, title, text, source, page, acl, sheet, markdown, document_date, units
FROM boundloop.chunks
WHERE chunk_id = ANY(%(ids)s) AND acl && %(groups)s::text[]
"""


class PostgresIndex:
    """An index in a PostgreSQL database. Searches run as the reader role, inside an entitled transaction."""

    def __init__(self, settings: PgSettings, create: bool = False, tuning: DenseTuning | None = None,
                 keyword_per_term: int | None = keyword.POSTINGS_PER_TERM) -> None:
        self.settings = settings
        self.tuning = tuning or DenseTuning()
        self.keyword_per_term = keyword_per_term  # None: exact BM25 over every posting (see `keyword`)
        self.dense_plans: Counter[str] = Counter()  # which dense plans ran: exact, hnsw, hnsw+exact
        self._lock = threading.Lock()
        self._reader: ConnectionPool | None = None
        self._writer: ConnectionPool | None = None
        self._encoder: str | None = None
        if create:
            self._writer_pool()  # creates or migrates the schema
        else:
            self._reader_pool()  # fails now, and clearly, when the index is missing or the role is unsafe

    @classmethod
    def open(cls, url: str, create: bool = False) -> PostgresIndex:
        """The index at writer URL `url`, with the reader URL from the environment (see `settings`)."""
        return cls(PgSettings.from_env(url), create=create)

    # --- pools -------------------------------------------------------------------------------------------------

    def _writer_pool(self) -> ConnectionPool:
        with self._lock:
            if self._writer is None:
                where = self.settings.writer_where
                with database_errors(where), psycopg.connect(
                    self.settings.writer_url, connect_timeout=self.settings.connect_timeout_s
                ) as conn:
                    migrations.migrate(conn)
                    migrations.grant_reader(conn, self.settings.reader_role)
                self._writer = open_pool(self.settings.writer_url, where, self.settings, register_vector)
            return self._writer

    def _reader_pool(self) -> ConnectionPool:
        with self._lock:
            if self._reader is None:
                self._reader = open_pool(self.settings.reader_url, self.settings.reader_where, self.settings,
                                         configure=register_vector, check=self._check_reader,
                                         statement_timeout_ms=self.settings.statement_timeout_ms)
            return self._reader

    def _check_reader(self, conn: psycopg.Connection) -> None:
        self._check_schema(conn)
        check_reader_confined(conn, self.settings.reader_where)
        # read now, so that runs started while the database is down still reach the loop (which abstains)
        self._encoder = writer.meta_value(conn, "encoder")

    def _check_schema(self, conn: psycopg.Connection) -> None:
        version = migrations.applied_version(conn)
        where = self.settings.reader_where
        if version is None:
            raise IndexStoreError(f"no boundloop index in {where} (run `boundloop ingest PATH --index URL` first)")
        if version != migrations.LATEST:
            raise IndexStoreError(
                f"index at {where} has schema version {version}, this build expects {migrations.LATEST} "
                "(run `boundloop ingest` with the writer URL to migrate)"
            )

    # --- reads -------------------------------------------------------------------------------------------------

    @property
    def encoder_name(self) -> str | None:
        if self._encoder is None:
            pool = self._reader_pool()
            with database_errors(self.settings.reader_where), pool.connection() as conn:
                self._encoder = writer.meta_value(conn, "encoder")
        return self._encoder

    def keyword_candidates(
        self, query: str, access: AccessFilter, limit: int, deadline: float | None = None
    ) -> list[Candidate]:
        """Full-text candidates among the permitted rows: ACL in the query, and RLS under it.

        With `deadline`, the server cancels the query there (a statement timeout): `SearchTimeout`.
        """
        if access.matches_nothing or limit <= 0 or keyword.query_text(query) is None:
            return []
        with entitled_transaction(self._reader_pool(), access, self.settings.reader_where) as conn:
            if deadline is None:
                return keyword.keyword_candidates(conn, query, access, limit, self.keyword_per_term)
            left_ms = int((deadline - time.monotonic()) * 1000)
            if left_ms <= 0:
                raise SearchTimeout("no time left for the keyword query")
            set_local(conn, {"statement_timeout": str(left_ms)})
            try:
                return keyword.keyword_candidates(conn, query, access, limit, self.keyword_per_term)
            except psycopg.errors.QueryCanceled:
                raise SearchTimeout("keyword search stopped at its deadline") from None

    def dense_candidates(self, vector: np.ndarray, access: AccessFilter, limit: int) -> list[Candidate]:
        """The `limit` nearest permitted chunks (see `dense` for how HNSW and exact search are chosen)."""
        if access.matches_nothing or limit <= 0:
            return []
        with entitled_transaction(self._reader_pool(), access, self.settings.reader_where) as conn:
            found, plan = dense.dense_search(conn, vector, sorted(access.groups), limit, self.tuning)
        self.dense_plans[plan] += 1
        return found

    def title_candidates(self, names: list[str], access: AccessFilter, limit: int) -> list[Candidate]:
        """Lead chunks of permitted documents titled by one of the names: ACL in the query, and RLS under it."""
        if access.matches_nothing or limit <= 0 or not names:
            return []
        with entitled_transaction(self._reader_pool(), access, self.settings.reader_where) as conn:
            return titles.title_candidates(conn, names, access, limit)

    def load_chunks(self, chunk_ids: list[str], access: AccessFilter) -> dict[str, StoredChunk]:
        """The chunks by id, filtered in SQL, by RLS, and re-checked here: a stray id yields nothing."""
        if not chunk_ids or access.matches_nothing:
            return {}
        with entitled_transaction(self._reader_pool(), access, self.settings.reader_where) as conn:
            rows = conn.execute(_LOAD_SQL, {"ids": chunk_ids, "groups": sorted(access.groups)}).fetchall()
        found: dict[str, StoredChunk] = {}
        for chunk_id, doc_id, title, text, source, page, acl, sheet, markdown, dated, units in rows:
            groups = frozenset(acl)
            if access.permits(groups):
                found[chunk_id] = StoredChunk(chunk_id, doc_id, title, text, source, page, groups, sheet, markdown,
                                              dated, stored_units(units, chunk_id))
        return found

    # --- writes (the writer role) ------------------------------------------------------------------------------

    def stored_documents(self) -> dict[str, StoredDocument]:
        with database_errors(self.settings.writer_where), self._writer_pool().connection() as conn:
            return writer.stored_documents(conn)

    def stats(self) -> dict[str, int]:
        with database_errors(self.settings.writer_where), self._writer_pool().connection() as conn:
            row = conn.execute(
                "SELECT (SELECT count(*) FROM boundloop.documents), (SELECT count(*) FROM boundloop.chunks)"
            ).fetchone()
        documents, chunks = row if row else (0, 0)
        return {"documents": int(documents), "chunks": int(chunks)}

    def apply(self, batch: WriteBatch, encoder_name: str | None) -> Applied:
        """The whole batch in one transaction, or nothing (see `writer.PgWriteSession`)."""
        with self.write_session(encoder_name) as session:
            return session.apply(batch)

    @contextmanager
    def write_session(self, encoder_name: str | None) -> Iterator[writer.PgWriteSession]:
        """Batches applied in turn on one writer connection, in one transaction committed at the end, or not at all.

        The connection is held for the session; its transaction begins with the first batch.
        """
        with database_errors(self.settings.writer_where), self._writer_pool().connection() as conn:
            session = writer.PgWriteSession(conn, encoder_name)
            try:
                yield session
                session.finish()
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
            if session.chunks_added >= writer.ANALYZE_AFTER:
                writer.vacuum_postings(conn)
        if session.chunks_added and encoder_name:
            self._encoder = encoder_name  # bound by this session, or checked equal to the bound one

    def close(self) -> None:
        with self._lock:
            for pool in (self._reader, self._writer):
                if pool is not None:
                    pool.close()
            self._reader = self._writer = None
