"""Writes to the embedded index, made inside `SqliteIndex.apply`'s transaction: documents, ACLs, group tokens."""

from __future__ import annotations

import json
import sqlite3
import time

import numpy as np

from boundloop.retrieval.backend import AclUpdate, DocumentWrite
from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.typed_units import storable


def group_tokens(conn: sqlite3.Connection, groups: frozenset[str]) -> list[str]:
    """The full-text tokens ('g3') of the groups the index knows."""
    if not groups:
        return []
    marks = ",".join("?" * len(groups))
    rows = conn.execute(f"SELECT gid FROM groups WHERE name IN ({marks})", sorted(groups)).fetchall()
    return [f"g{gid}" for (gid,) in rows]


def ensure_group_tokens(conn: sqlite3.Connection, groups: tuple[str, ...]) -> list[str]:
    """The groups' tokens, numbering groups the index has not seen yet."""
    for group in groups:
        conn.execute(
            "INSERT OR IGNORE INTO groups (name, gid) VALUES (?, (SELECT coalesce(max(gid), 0) + 1 FROM groups))",
            (group,),
        )
    return group_tokens(conn, frozenset(groups))


def write_document(conn: sqlite3.Connection, write: DocumentWrite) -> None:
    """A document and its chunks, replacing any earlier version."""
    doc = write.document
    conn.execute("DELETE FROM documents WHERE doc_id=?", (doc.doc_id,))
    acl_json = json.dumps(sorted(doc.acl))
    conn.execute(
        "INSERT INTO documents (doc_id, title, source, acl, metadata, content_hash, updated_at, origin) "
        "VALUES (?,?,?,?,?,?,?,?)",
        (doc.doc_id, doc.title, doc.source, acl_json, json.dumps(doc.metadata), write.content_hash, time.time(),
         doc.origin),
    )
    tokens = " ".join(ensure_group_tokens(conn, doc.acl))
    conn.executemany(
        "INSERT INTO chunks (chunk_id, doc_id, ordinal, title, text, source, page, sheet, acl, acl_tokens, vector, "
        "markdown, document_date, units) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [
            (c.chunk_id, c.doc_id, c.ordinal, c.title, c.text, c.source, c.page, c.sheet, acl_json, tokens,
             np.ascontiguousarray(write.vectors[i], dtype=np.float32).tobytes(), c.markdown, c.document_date,
             storable(c.units))
            for i, c in enumerate(write.chunks)
        ],
    )


def write_acl(conn: sqlite3.Connection, update: AclUpdate) -> None:
    """A new ACL on a document, its chunks and their full-text ACL tokens; text and vectors stay as they are."""
    acl_json = json.dumps(sorted(update.acl))
    before = conn.execute("SELECT acl FROM documents WHERE doc_id=?", (update.doc_id,)).fetchone()
    found = conn.execute(
        "UPDATE documents SET acl=?, content_hash=?, origin=?, updated_at=? WHERE doc_id=?",
        (acl_json, update.content_hash, update.origin, time.time(), update.doc_id),
    ).rowcount
    if not found:
        raise IndexStoreError(f"document {update.doc_id!r} was removed during the ingest: run it again")
    if before is not None and before[0] == acl_json:
        return  # only the origin moved: the chunks keep their labels
    tokens = " ".join(ensure_group_tokens(conn, update.acl))
    # chunks_fts has external content and no update trigger: take the old tokens out, then index the new ones
    conn.execute(
        "INSERT INTO chunks_fts(chunks_fts, rowid, title, text, acl_tokens) "
        "SELECT 'delete', id, title, text, acl_tokens FROM chunks WHERE doc_id=?",
        (update.doc_id,),
    )
    conn.execute("UPDATE chunks SET acl=?, acl_tokens=? WHERE doc_id=?", (acl_json, tokens, update.doc_id))
    conn.execute(
        "INSERT INTO chunks_fts(rowid, title, text, acl_tokens) SELECT id, title, text, acl_tokens FROM chunks "
        "WHERE doc_id=?",
        (update.doc_id,),
    )
