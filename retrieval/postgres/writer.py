"""The writer's side: bind the encoder on first ingest, and apply an ingest's batches in one transaction with COPY."""

from __future__ import annotations

from collections import Counter

import psycopg
from psycopg import Copy

from boundloop.retrieval.backend import AclUpdate, Applied, DocumentWrite, StoredDocument, WriteBatch
from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.postgres import bulk, postings
from boundloop.retrieval.postgres.bulk import BulkTuning
from boundloop.retrieval.typed_units import storable
from boundloop.retrieval.write_plan import batch_doc_ids, reconcile

# ANALYZE once the chunks written, removed or relabelled since the last one reach both this many and
# ANALYZE_SHARE of the index (autovacuum's own default share); until then autovacuum may do it. Every 10k-chunk
# batch into 100k chunks ran ANALYZE on both tables: 0.16 ms a chunk, more than the embedded backend's whole write
ANALYZE_AFTER = 1000
ANALYZE_SHARE = 0.1
WRITE_WORK_MEM = "256MB"
WRITE_LOCK = 0x626C7772  # pg_advisory_xact_lock key: one writing batch at a time, like SQLite's BEGIN IMMEDIATE

_DOCUMENT_COLUMNS = "doc_id, title, source, acl, metadata, content_hash, origin"
_DOCUMENT_TYPES = ["text", "text", "text", "text[]", "jsonb", "text", "text"]
STORED_SQL = "SELECT doc_id, content_hash, acl, source, origin FROM boundloop.documents"
_CHUNK_COLUMNS = ("chunk_id, doc_id, ordinal, title, text, source, page, sheet, acl, embedding, markdown, "
                  "document_date, units")
_CHUNK_TYPES = ["text", "text", "int4", "text", "text", "text", "int4", "text", "text[]", "vector", "text", "text",
                "text"]
_STAGE_SQL = """
CREATE TEMP TABLE IF NOT EXISTS stage_documents (doc_id text, title text, source text, acl text[], metadata jsonb,
                                                 content_hash text, origin text) ON COMMIT DROP;
CREATE TEMP TABLE IF NOT EXISTS stage_chunks (chunk_id text, doc_id text, ordinal int4, title text, text text,
                                              source text, page int4, sheet text, acl text[], embedding vector,
                                              markdown text, document_date text, units text) ON COMMIT DROP;
TRUNCATE stage_documents, stage_chunks;
"""


def _clean(text: str) -> str:
    return text.replace("\x00", "")  # PostgreSQL text cannot hold NUL; SQLite could


def meta_value(conn: psycopg.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM boundloop.meta WHERE key = %s", (key,)).fetchone()
    return str(row[0]) if row else None


def bind_encoder(conn: psycopg.Connection, encoder_name: str, dimension: int) -> None:
    """Record the encoder; the first time, type the embedding column `vector(dimension)` and build its HNSW index."""
    stored = meta_value(conn, "encoder")
    if stored is not None and stored != encoder_name:
        raise IndexStoreError(f"index was built with encoder {stored!r}, not {encoder_name!r}: use a new --index")
    if stored is None:
        conn.execute(
            "INSERT INTO boundloop.meta VALUES ('encoder', %s), ('dimension', %s)", (encoder_name, str(dimension))
        )
        conn.execute(f"ALTER TABLE boundloop.chunks ALTER COLUMN embedding TYPE vector({int(dimension)})")
        # keep vectors in the row (MAIN: out of line only as a last resort), not in TOAST: an exact scan that
        # fetched each vector from the TOAST table ran ~15x slower than the HNSW path at 10k chunks
        conn.execute("ALTER TABLE boundloop.chunks ALTER COLUMN embedding SET STORAGE MAIN")
        conn.execute(bulk.hnsw_definition(0, BulkTuning()))


def stored_documents(conn: psycopg.Connection, doc_ids: list[str] | None = None) -> dict[str, StoredDocument]:
    """The stored documents (those among `doc_ids`, if given) as ingest compares against them."""
    if doc_ids is None:
        rows = conn.execute(STORED_SQL).fetchall()
    else:
        rows = conn.execute(STORED_SQL + " WHERE doc_id = ANY(%s)", (doc_ids,)).fetchall()
    return {doc_id: StoredDocument(digest, tuple(acl), source, origin) for doc_id, digest, acl, source, origin in rows}


def write_chunks(copy: Copy, write: DocumentWrite) -> None:
    """One document's chunks into the open COPY (a seam the crash-mid-batch test breaks)."""
    acl = sorted(set(write.document.acl))
    for i, chunk in enumerate(write.chunks):
        copy.write_row((chunk.chunk_id, chunk.doc_id, chunk.ordinal, _clean(chunk.title), _clean(chunk.text),
                        _clean(chunk.source), chunk.page,
                        None if chunk.sheet is None else _clean(chunk.sheet), acl, write.vectors[i],
                        _clean(chunk.markdown), chunk.document_date, storable(chunk.units)))


def _acl_counts_of(conn: psycopg.Connection, doc_ids: list[str]) -> Counter[str]:
    rows = conn.execute(
        "SELECT g, count(*) FROM boundloop.chunks, unnest(acl) AS g WHERE doc_id = ANY(%s) GROUP BY g", (doc_ids,)
    ).fetchall()
    return Counter({name: int(n) for name, n in rows})


def update_acls(conn: psycopg.Connection, updates: list[AclUpdate]) -> tuple[Counter[str], int]:
    """New ACLs on documents and their chunks (RLS and the ACL filter read them); text and vectors stay.

    Returns the change of each group's chunk count and how many chunks were relabelled.
    """
    doc_ids = [u.doc_id for u in updates]
    before = _acl_counts_of(conn, doc_ids)
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE boundloop.documents SET acl = %s::text[], content_hash = %s, origin = %s, updated_at = now() "
            "WHERE doc_id = %s",
            [(sorted(set(u.acl)), u.content_hash, u.origin, u.doc_id) for u in updates],
        )
        if cur.rowcount < len(updates):  # psycopg sums the rows of every statement run
            raise IndexStoreError("a document was removed during the ingest: run it again")
        cur.executemany(
            "UPDATE boundloop.chunks SET acl = %s::text[] WHERE doc_id = %s",
            [(sorted(set(u.acl)), u.doc_id) for u in updates],
        )
        relabelled = cur.rowcount
    delta = _acl_counts_of(conn, doc_ids)
    delta.subtract(before)
    return delta, relabelled


class PgWriteSession:
    """An ingest's batches, applied in turn on one connection inside the caller's transaction (`WriteSession`).

    The first batch takes the write lock (held to the end of the transaction); the per-group chunk counts, the
    index's statistics and any indexes dropped for a bulk load are brought up to date once, by `finish`, before the
    caller commits.
    """

    def __init__(self, conn: psycopg.Connection, encoder_name: str | None, tuning: BulkTuning | None = None) -> None:
        self._conn = conn
        self._encoder_name = encoder_name
        self._tuning = tuning or BulkTuning()
        self._begun = False
        self._existing = 0  # chunks in the index when the session began
        self._deferred: list[tuple[str, str]] | None = None  # indexes dropped for a bulk load, to build again
        self._groups: Counter[str] = Counter()
        self.chunks_added = 0
        self._chunks_dropped = 0
        self._relabelled = 0
        self._changed = False

    def _begin(self) -> None:
        if not self._begun:
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            self._conn.execute("SELECT set_config('work_mem', %s, true)", (WRITE_WORK_MEM,))  # sorts of postings
            self._existing = bulk.existing_chunks(self._conn)
            self._begun = True

    def apply(self, batch: WriteBatch) -> Applied:
        """Deletes, ACL updates and upserts of one batch; nothing is committed here."""
        conn = self._conn
        self._begin()
        batch, applied = reconcile(batch, stored_documents(conn, batch_doc_ids(batch)))
        if not (batch.upserts or batch.deletes or batch.acl_updates):
            return applied
        self._changed = True
        if batch.upserts and self._encoder_name:
            bind_encoder(conn, self._encoder_name, int(batch.upserts[0].vectors.shape[1]))
        replaced = list(dict.fromkeys([*batch.deletes, *(w.document.doc_id for w in batch.upserts)]))
        self._groups.update({g: -n for g, n in _acl_counts_of(conn, replaced).items()} if replaced else {})
        removed = conn.execute(
            "SELECT count(*) FROM boundloop.chunks WHERE doc_id = ANY(%s)", (replaced,)
        ).fetchone()
        dropped = int(removed[0]) if removed else 0
        if dropped:
            postings.remove_documents(conn, replaced)
        conn.execute("DELETE FROM boundloop.documents WHERE doc_id = ANY(%s)", (replaced,))  # chunks cascade
        if batch.acl_updates:
            delta, relabelled = update_acls(conn, batch.acl_updates)
            self._groups.update(delta)
            self._relabelled += relabelled
            postings.relabel_documents(conn, [u.doc_id for u in batch.acl_updates])
        added = sum(len(w.chunks) for w in batch.upserts)
        if added:
            if self._deferred is None and bulk.defers(self._existing, self.chunks_added + added, self._tuning):
                self._deferred = bulk.drop_deferrable(conn)
            _insert_upserts(conn, batch, self._groups)
        self.chunks_added += added
        self._chunks_dropped += dropped
        return applied

    def finish(self) -> None:
        """Build the dropped indexes again and bring counts and statistics up to date; then the caller commits."""
        if not self._changed:
            return
        if self._deferred:
            bulk.rebuild(self._conn, self._deferred, self._existing + self.chunks_added, self._tuning)
        _update_counts(self._conn, self._groups, self.chunks_added - self._chunks_dropped)
        # fresh statistics, or the planner misjudges the ACL and text filters
        if statistics_stale(self._conn, self.chunks_added + self._chunks_dropped + self._relabelled):
            self._conn.execute("ANALYZE boundloop.chunks")
            self._conn.execute("ANALYZE boundloop.postings")


def apply_batch(conn: psycopg.Connection, batch: WriteBatch, encoder_name: str | None,
                tuning: BulkTuning | None = None) -> Applied:
    """Deletes, ACL updates and upserts in one transaction: on any error (or a crash) the index is as before."""
    with conn.transaction():
        session = PgWriteSession(conn, encoder_name, tuning)
        applied = session.apply(batch)
        session.finish()
    return applied


def statistics_stale(conn: psycopg.Connection, changed: int) -> bool:
    """Whether the planner's statistics are due, counting `changed` more chunks since the last ANALYZE.

    The count is kept in `meta` ('unanalyzed') and reset when this returns True: once it reaches `ANALYZE_AFTER`
    and `ANALYZE_SHARE` of the index.
    """
    row = conn.execute(
        "SELECT coalesce((SELECT value::bigint FROM boundloop.meta WHERE key = 'unanalyzed'), 0), "
        "(SELECT value::bigint FROM boundloop.meta WHERE key = 'chunks')"
    ).fetchone()
    since, total = (int(row[0]) + changed, int(row[1] or 0)) if row else (changed, 0)
    stale = since >= max(ANALYZE_AFTER, ANALYZE_SHARE * total)
    conn.execute(
        "INSERT INTO boundloop.meta VALUES ('unanalyzed', %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (str(0 if stale else since),),
    )
    return stale


def _insert_upserts(conn: psycopg.Connection, batch: WriteBatch, groups: Counter[str]) -> None:
    # COPY cannot write into a table under (forced) row-level security: stage, then INSERT ... SELECT
    conn.execute(_STAGE_SQL)
    with conn.cursor().copy(f"COPY stage_documents ({_DOCUMENT_COLUMNS}) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(_DOCUMENT_TYPES)
        for w in batch.upserts:
            d = w.document
            cp.write_row((d.doc_id, _clean(d.title), _clean(d.source), sorted(set(d.acl)), d.metadata,
                          w.content_hash, _clean(d.origin)))
    with conn.cursor().copy(f"COPY stage_chunks ({_CHUNK_COLUMNS}) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(_CHUNK_TYPES)
        for w in batch.upserts:
            write_chunks(cp, w)
            for group in set(w.document.acl):
                groups[group] += len(w.chunks)
    conn.execute(f"INSERT INTO boundloop.documents ({_DOCUMENT_COLUMNS}) SELECT * FROM stage_documents")
    postings.insert_staged_chunks(conn, _CHUNK_COLUMNS)


def _update_counts(conn: psycopg.Connection, groups: Counter[str], chunk_delta: int) -> None:
    changed = {g: n for g, n in groups.items() if n}
    if changed:
        conn.execute(
            "INSERT INTO boundloop.acl_groups AS a (name, chunks) SELECT * FROM unnest(%s::text[], %s::bigint[]) "
            "ON CONFLICT (name) DO UPDATE SET chunks = a.chunks + excluded.chunks",
            (list(changed), list(changed.values())),
        )
        conn.execute("DELETE FROM boundloop.acl_groups WHERE chunks <= 0")
    conn.execute(
        "UPDATE boundloop.meta SET value = (value::bigint + %s)::text WHERE key = 'chunks'", (chunk_delta,)
    )
    conn.execute("UPDATE boundloop.meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")


def vacuum_postings(conn: psycopg.Connection) -> None:
    """After a large batch: mark the new postings all-visible, so rankings stay index-only scans."""
    conn.autocommit = True  # VACUUM cannot run inside a transaction
    try:
        conn.execute("VACUUM boundloop.postings")
    finally:
        conn.autocommit = False
