"""Reconcile a write batch with the index as it is inside the write transaction: what is left to do, and counts.

An ingest decides what to write from a look at the index taken before it embeds, which can take minutes; another
ingest may write the same documents meanwhile. Backends call `reconcile` under their write lock, so a document
that another ingest already wrote counts as unchanged, not as added twice.
"""

from __future__ import annotations

from collections.abc import Mapping

from boundloop.retrieval.backend import AclUpdate, Applied, DocumentWrite, StoredDocument, WriteBatch
from boundloop.retrieval.errors import IndexStoreError


def batch_doc_ids(batch: WriteBatch) -> list[str]:
    """Every document the batch touches (the rows a backend reads under its lock before `reconcile`)."""
    ids = [w.document.doc_id for w in batch.upserts] + [u.doc_id for u in batch.acl_updates] + list(batch.deletes)
    return list(dict.fromkeys(ids))


def _upsert(write: DocumentWrite, stored: StoredDocument | None, todo: WriteBatch, applied: Applied) -> None:
    document = write.document
    if stored is None:
        todo.upserts.append(write)
        applied.added += 1
        applied.chunks_written += len(write.chunks)
    elif stored.content_hash != write.content_hash:
        todo.upserts.append(write)
        applied.updated += 1
        applied.chunks_written += len(write.chunks)
    elif not stored.same_labels(document.acl, document.origin):  # the content arrived meanwhile, the labels differ
        todo.acl_updates.append(AclUpdate(document.doc_id, document.acl, write.content_hash, document.origin))
        applied.updated += set(stored.acl) != set(document.acl)
        applied.unchanged += set(stored.acl) == set(document.acl)
    else:
        applied.unchanged += 1


def _relabel(update: AclUpdate, stored: StoredDocument | None, todo: WriteBatch, applied: Applied) -> None:
    if stored is None:
        raise IndexStoreError(f"document {update.doc_id!r} was removed during the ingest: run it again")
    if stored.content_hash not in {update.content_hash, update.previous_hash}:
        raise IndexStoreError(f"document {update.doc_id!r} was changed during the ingest: run it again")
    if stored.content_hash == update.content_hash and stored.same_labels(update.acl, update.origin):
        applied.unchanged += 1
        return
    todo.acl_updates.append(update)
    if set(stored.acl) != set(update.acl):
        applied.updated += 1
    else:  # the same document: only its origin or its fingerprint's scheme changed
        applied.unchanged += 1


def reconcile(batch: WriteBatch, current: Mapping[str, StoredDocument]) -> tuple[WriteBatch, Applied]:
    """The part of `batch` still to do, given `current` (the stored documents it touches, read under the lock)."""
    todo = WriteBatch(upserts=[], deletes=[], acl_updates=[])
    applied = Applied()
    for doc_id in dict.fromkeys(batch.deletes):
        if doc_id in current:
            todo.deletes.append(doc_id)
            applied.deleted += 1
    gone = set(todo.deletes)
    for write in batch.upserts:
        _upsert(write, None if write.document.doc_id in gone else current.get(write.document.doc_id), todo, applied)
    for update in batch.acl_updates:
        _relabel(update, current.get(update.doc_id), todo, applied)
    return todo, applied
