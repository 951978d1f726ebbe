"""Ingest: load, skip what is unchanged, chunk, embed, and write the whole batch in one transaction.

A document whose ACL alone changed is not chunked or embedded again: the batch carries its new ACL only.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np
from tqdm import tqdm

from retrieval.backend import AclUpdate, DocumentWrite, Encoder, IndexBackend, StoredDocument, WriteBatch
from retrieval.chunking import CHUNKER_VERSION, chunk_document
from retrieval.documents import Document, LoadProblem
from retrieval.loaders import LoadItem

EMBED_STEP = 256  # chunks per progress-bar step (each step's texts are split over the encoder's workers)


@dataclass
class IngestReport:
    """What one ingest did; printed by the CLI and returned by the API."""

    seen: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0
    chunks_written: int = 0
    no_acl: int = 0
    default_acl_applied: int = 0
    problems: list[LoadProblem] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "seen": self.seen, "added": self.added, "updated": self.updated, "unchanged": self.unchanged,
            "deleted": self.deleted, "chunks_written": self.chunks_written, "no_acl": self.no_acl,
            "default_acl_applied": self.default_acl_applied,
            "problems": [{"location": p.location, "message": p.message} for p in self.problems],
        }


def _collect(items: Iterable[LoadItem], default_acl: str | None, report: IngestReport) -> list[Document]:
    documents: dict[str, Document] = {}
    for item in items:
        if isinstance(item, LoadProblem):
            report.problems.append(item)
            continue
        report.seen += 1
        if item.doc_id in documents:
            report.problems.append(LoadProblem(item.source, f"duplicate document id {item.doc_id!r}; first kept"))
            continue
        if not item.acl:
            if default_acl:
                item = replace(item, acl=(default_acl,))
                report.default_acl_applied += 1
            else:
                report.no_acl += 1
        documents[item.doc_id] = item
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


def ingest(
    backend: IndexBackend, encoder: Encoder, items: Iterable[LoadItem], default_acl: str | None = None,
    show_progress: bool = True,
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
            if set(stored.acl) == set(document.acl):
                report.unchanged += 1
            else:
                acl_updates.append(AclUpdate(document.doc_id, document.acl, digest))
                report.updated += 1
            continue
        chunks = chunk_document(document)
        if not chunks:
            report.problems.append(LoadProblem(document.source, f"document {document.doc_id!r} has no text"))
            continue
        pending.append((document, digest, chunks))
        if document.doc_id in known:
            report.updated += 1
        else:
            report.added += 1
    texts = [f"{c.title}\n{c.text}" for _, _, chunks in pending for c in chunks]
    vectors = _embed(encoder, texts, show_progress and len(texts) > EMBED_STEP)
    writes, offset = [], 0
    for document, digest, chunks in pending:
        writes.append(DocumentWrite(document, digest, chunks, vectors[offset : offset + len(chunks)]))
        offset += len(chunks)
    if writes or acl_updates:
        backend.apply(WriteBatch(upserts=writes, deletes=[], acl_updates=acl_updates), encoder.name)
    report.chunks_written = offset
    return report


def delete(backend: IndexBackend, doc_ids: list[str]) -> IngestReport:
    """Remove documents and all their chunks, in one transaction; unknown ids are reported, not fatal."""
    report = IngestReport()
    known = backend.stored_documents()
    present = [d for d in doc_ids if d in known]
    report.problems.extend(LoadProblem(d, "no such document") for d in doc_ids if d not in known)
    if present:
        backend.apply(WriteBatch(upserts=[], deletes=present), None)
    report.deleted = len(present)
    return report
