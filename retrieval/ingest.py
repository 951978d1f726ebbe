"""Ingest: load, skip what is unchanged, chunk, embed, and write the whole batch in one transaction.

A document whose ACL alone changed is not chunked or embedded again: the batch carries its new ACL only. With a
`SyncScope`, the documents of the ingested file or folder that it no longer holds are stale: counted, or removed in
the same transaction.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np
from tqdm import tqdm

from boundloop.retrieval.backend import (
    AclUpdate,
    Applied,
    DocumentWrite,
    Encoder,
    IndexBackend,
    StoredDocument,
    WriteBatch,
)
from boundloop.retrieval.chunking import CHUNKER_VERSION, chunk_document
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.loaders import LoadItem

EMBED_STEP = 256  # chunks per progress-bar step (each step's texts are split over the encoder's workers)


@dataclass
class IngestReport(Applied):
    """What one ingest did (the backend's counts, and what it saw); printed by the CLI and returned by the API."""

    seen: int = 0
    no_acl: int = 0
    default_acl_applied: int = 0
    problems: list[LoadProblem] = field(default_factory=list)
    no_acl_ids: list[str] = field(default_factory=list)
    """Documents that carry no ACL (and got no default): visible to nobody."""
    empty_acl_ids: list[str] = field(default_factory=list)
    """Documents whose ACL is an explicit empty list: visible to nobody, on purpose."""
    stale_ids: list[str] = field(default_factory=list)
    """Documents of the ingested file or folder that it no longer holds, left in the index (no `--sync`)."""

    def as_dict(self) -> dict[str, object]:
        return {
            "seen": self.seen, "added": self.added, "updated": self.updated, "unchanged": self.unchanged,
            "deleted": self.deleted, "chunks_written": self.chunks_written, "no_acl": self.no_acl,
            "default_acl_applied": self.default_acl_applied,
            "problems": [{"location": p.location, "message": p.message} for p in self.problems],
            "no_acl_ids": self.no_acl_ids, "empty_acl_ids": self.empty_acl_ids, "stale": len(self.stale_ids),
            "stale_ids": self.stale_ids,
        }


@dataclass(frozen=True)
class SyncScope:
    """The file or folder an ingest reads whole (its real path, the documents' `origin`).

    Its stored documents that the ingest no longer holds are stale; `remove` deletes them. A document whose file
    failed to load this time is not stale; after a bad line that names no document, nothing is removed.
    """

    origin: str
    remove: bool = False


def _collect(items: Iterable[LoadItem], default_acl: str | None, report: IngestReport) -> list[Document]:
    documents: dict[str, Document] = {}
    for item in items:
        if isinstance(item, LoadProblem):
            report.problems.append(item)
            continue
        report.seen += 1
        if item.doc_id in documents:
            report.problems.append(
                LoadProblem(item.source, f"duplicate document id {item.doc_id!r}; first kept", item.source)
            )
            continue
        if not item.acl and not item.acl_given:
            if default_acl:
                item = replace(item, acl=(default_acl,), acl_given=True)
                report.default_acl_applied += 1
            else:
                report.no_acl_ids.append(item.doc_id)
        elif not item.acl:
            report.empty_acl_ids.append(item.doc_id)
        documents[item.doc_id] = item
    report.no_acl = len(report.no_acl_ids) + len(report.empty_acl_ids)
    return list(documents.values())


def _same_content(stored: StoredDocument, document: Document, digest: str, salt: str) -> bool:
    """Whether the index holds this content already (under today's fingerprint, or the ACL-mixed older one)."""
    if stored.content_hash == digest:
        return True
    return stored.content_hash == replace(document, acl=stored.acl).legacy_content_hash(salt)


def _embed(encoder: Encoder, texts: list[str], show_progress: bool) -> np.ndarray:
    if not texts:
        return np.zeros((0, encoder.dimension), dtype=np.float32)
    parts = []
    with tqdm(total=len(texts), unit="chunk", desc="embedding", disable=not show_progress, file=sys.stderr) as bar:
        for start in range(0, len(texts), EMBED_STEP):
            batch = texts[start : start + EMBED_STEP]
            parts.append(encoder.encode(batch))
            bar.update(len(batch))
    return np.vstack(parts)


def _stale(known: dict[str, StoredDocument], documents: list[Document], scope: SyncScope,
           problems: list[LoadProblem]) -> list[str]:
    """Stored documents of the scope's origin that this ingest does not hold, except those whose file failed."""
    held = {d.doc_id for d in documents}
    failed = {p.source for p in problems if p.source}
    return sorted(doc_id for doc_id, stored in known.items()
                  if stored.origin == scope.origin and doc_id not in held and stored.source not in failed)


def ingest(
    backend: IndexBackend, encoder: Encoder, items: Iterable[LoadItem], default_acl: str | None = None,
    show_progress: bool = True, scope: SyncScope | None = None,
) -> IngestReport:
    """Add new documents, replace changed ones, relabel those whose ACL alone changed; all or nothing."""
    report = IngestReport()
    documents = _collect(items, default_acl, report)
    known = backend.stored_documents()
    salt = f"{CHUNKER_VERSION}|{encoder.name}"
    pending: list[tuple[Document, str, list]] = []
    acl_updates: list[AclUpdate] = []
    for document in documents:
        digest = document.content_hash(salt)
        stored = known.get(document.doc_id)
        if stored is not None and _same_content(stored, document, digest, salt):
            if stored.content_hash == digest and stored.same_labels(document.acl, document.origin):
                report.unchanged += 1
            else:
                acl_updates.append(AclUpdate(document.doc_id, document.acl, digest, document.origin,
                                             previous_hash=stored.content_hash))
            continue
        chunks = chunk_document(document)
        if not chunks:
            report.problems.append(LoadProblem(document.source, f"document {document.doc_id!r} has no text",
                                               document.source))
            continue
        pending.append((document, digest, chunks))
    stale = _stale(known, documents, scope, report.problems) if scope else []
    removable = scope is not None and scope.remove and all(p.source for p in report.problems)
    texts = [f"{c.title}\n{c.text}" for _, _, chunks in pending for c in chunks]
    vectors = _embed(encoder, texts, show_progress and len(texts) > EMBED_STEP)
    writes, offset = [], 0
    for document, digest, chunks in pending:
        writes.append(DocumentWrite(document, digest, chunks, vectors[offset : offset + len(chunks)]))
        offset += len(chunks)
    deletes = stale if removable else []
    if writes or acl_updates or deletes:
        applied = backend.apply(WriteBatch(upserts=writes, deletes=deletes, acl_updates=acl_updates), encoder.name)
        report.added, report.updated, report.deleted = applied.added, applied.updated, applied.deleted
        report.unchanged += applied.unchanged
        report.chunks_written = applied.chunks_written
    report.stale_ids = [] if removable else stale
    return report


def delete(backend: IndexBackend, doc_ids: list[str]) -> IngestReport:
    """Remove documents and all their chunks, in one transaction; unknown ids are reported, not fatal."""
    report = IngestReport()
    known = backend.stored_documents()
    present = [d for d in doc_ids if d in known]
    report.problems.extend(LoadProblem(d, "no such document") for d in doc_ids if d not in known)
    if present:
        report.deleted = backend.apply(WriteBatch(upserts=[], deletes=present), None).deleted
    return report
