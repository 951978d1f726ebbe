"""Backend-neutral looks into an index's storage, for the contract tests that check what was written."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import psycopg

from boundloop.retrieval import sqlite_session
from boundloop.retrieval.postgres import PostgresIndex, writer


def _pg(index: PostgresIndex, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(index.settings.writer_url) as conn:  # the owner: its policy shows every row
        return conn.execute(query, params).fetchall()  # type: ignore[arg-type]


def documents(index: Any) -> list[tuple[str, str]]:
    """(doc_id, content_hash) of every document, sorted."""
    if isinstance(index, PostgresIndex):
        return [tuple(r) for r in _pg(index, "SELECT doc_id, content_hash FROM boundloop.documents ORDER BY 1")]
    return index._conn.execute("SELECT doc_id, content_hash FROM documents ORDER BY doc_id").fetchall()


def documents_seen_elsewhere(index: Any) -> int:
    """The document count as a second, independent connection sees it."""
    if isinstance(index, PostgresIndex):
        return int(_pg(index, "SELECT count(*) FROM boundloop.documents")[0][0])
    other = sqlite3.connect(index.folder / "index.db")
    try:
        return int(other.execute("SELECT count(*) FROM documents").fetchone()[0])
    finally:
        other.close()


def document_acls(index: Any) -> dict[str, list[str]]:
    if isinstance(index, PostgresIndex):
        return {doc_id: list(acl) for doc_id, acl in _pg(index, "SELECT doc_id, acl FROM boundloop.documents")}
    return {d: json.loads(a) for d, a in index._conn.execute("SELECT doc_id, acl FROM documents").fetchall()}


def generation(index: Any) -> str:
    if isinstance(index, PostgresIndex):
        return str(_pg(index, "SELECT value FROM boundloop.meta WHERE key = 'generation'")[0][0])
    return str(index._conn.execute("SELECT value FROM meta WHERE key='generation'").fetchone()[0])


def chunk_texts(index: Any, doc_id: str) -> list[str]:
    if isinstance(index, PostgresIndex):
        rows = _pg(index, "SELECT text FROM boundloop.chunks WHERE doc_id = %s ORDER BY ordinal", (doc_id,))
    else:
        rows = index._conn.execute("SELECT text FROM chunks WHERE doc_id=? ORDER BY ordinal", (doc_id,)).fetchall()
    return [text for (text,) in rows]


def chunk_count(index: Any, doc_id: str | None = None) -> int:
    if isinstance(index, PostgresIndex):
        if doc_id is None:
            return int(_pg(index, "SELECT count(*) FROM boundloop.chunks")[0][0])
        return int(_pg(index, "SELECT count(*) FROM boundloop.chunks WHERE doc_id = %s", (doc_id,))[0][0])
    if doc_id is None:
        return int(index._conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
    return int(index._conn.execute("SELECT count(*) FROM chunks WHERE doc_id=?", (doc_id,)).fetchone()[0])


def fulltext_count(index: Any, *words: str) -> int:
    """Rows of the full-text index holding all `words`: stale entries of replaced chunks would show here."""
    if isinstance(index, PostgresIndex):  # the keyword side reads postings: count chunks with all the words there
        return int(_pg(index, "SELECT count(*) FROM (SELECT chunk FROM boundloop.postings "
                              "WHERE lexeme = ANY(tsvector_to_array(to_tsvector('english', %s))) "
                              "GROUP BY chunk HAVING count(*) = %s) c", (" ".join(words), len(words)))[0][0])
    match = " AND ".join(words)
    return int(index._conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (match,)).fetchone()[0])


def crash_seam(index: Any) -> tuple[Any, str]:
    """Where a write of one document happens mid-batch: (owner, attribute) for monkeypatch."""
    if isinstance(index, PostgresIndex):
        return writer, "write_chunks"
    return sqlite_session, "write_document"


_SLOW_SQLITE_KEYWORD = (  # counts to a billion inside SQLite (~a minute), then finds nothing
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000000) "
    "SELECT x, 0.0 FROM c WHERE x < 0 AND ? IS NOT NULL AND ? IS NOT NULL"
)
_SLOW_PG_KEYWORD = """
WITH pause AS (SELECT pg_sleep(60))
SELECT c.chunk_id, 0.0 FROM boundloop.chunks c, pause
WHERE %(query)s::text IS NOT NULL AND %(groups)s::text[] IS NOT NULL LIMIT %(limit)s
"""


def slow_keyword_query(index: Any) -> tuple[Any, str, str]:
    """(owner, attribute, SQL) for monkeypatch: a keyword query that keeps the database busy for a minute."""
    if isinstance(index, PostgresIndex):
        from boundloop.retrieval.postgres import keyword

        return keyword, "_KEYWORD_SQL", _SLOW_PG_KEYWORD
    from boundloop.retrieval import sqlite_index

    return sqlite_index, "KEYWORD_SQL", _SLOW_SQLITE_KEYWORD


def keyword_query_running(index: Any) -> bool:
    """Whether the database is still working on a (slow) keyword query."""
    if isinstance(index, PostgresIndex):
        with psycopg.connect(index.settings.reader_url) as conn:  # a role sees its own sessions' queries
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' "
                               "AND query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()").fetchone()
        return bool(row and row[0])
    if index._lock.acquire(blocking=False):  # the connection is free
        index._lock.release()
        return False
    return True


def set_content_hash(index: Any, doc_id: str, digest: str) -> None:
    """Overwrite a document's stored fingerprint (to stand in for one written by an older version)."""
    if isinstance(index, PostgresIndex):
        with psycopg.connect(index.settings.writer_url) as conn:
            conn.execute("UPDATE boundloop.documents SET content_hash = %s WHERE doc_id = %s", (digest, doc_id))
        return
    index._conn.execute("UPDATE documents SET content_hash=? WHERE doc_id=?", (digest, doc_id))
