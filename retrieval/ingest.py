"""Ingest: load, skip what is unchanged, chunk, embed, and write, a batch at a time, in one transaction.

Documents stream from the loader; their chunks are embedded and written `BATCH_CHUNKS` at a time inside one write
session, so memory holds one batch whatever the input's size, and the index changes all at once or not at all.
A document whose ACL alone changed is not chunked or embedded again: the batch carries its new ACL only. With a
`SyncScope`, the documents of the ingested file or folder that it no longer holds are stale: counted, or removed in
the same transaction.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
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
    WriteSession,
)
from boundloop.retrieval.chunking import CHUNKER_VERSION, chunk_document
from boundloop.retrieval.documents import Chunk, Document, LoadProblem
from boundloop.retrieval.errors import IngestError
from boundloop.retrieval.loaders import LoadItem

EMBED_STEP = 256  # chunks per encoder call and progress-bar step (each call's texts are split over its workers)
BATCH_CHUNKS = 2048  # chunks embedded, written and let go at a time (a larger document is one batch of its own)


@dataclass
class IngestReport(Applied):
    """What one ingest did (the backend's counts, and what it saw); printed by the CLI and returned by the API."""

    seen: int = 0
    no_acl: int = 0
    default_acl_applied: int = 0
    comments_stripped: int = 0
    """HTML comments (`<!-- ... -->`) dropped from the documents seen: not content (see `html_comments`)."""
    problems: list[LoadProblem] = field(default_factory=list)
    no_acl_ids: list[str] = field(default_factory=list)
    """Documents that carry no ACL (and got no default): visible to nobody."""
    empty_acl_ids: list[str] = field(default_factory=list)
    """Documents whose ACL is an explicit empty list: visible to nobody, on purpose."""
    stale_ids: list[str] = field(default_factory=list)
    """Documents of the ingested file or folder that it no longer holds, left in the index (no `--sync`)."""

    def add(self, applied: Applied) -> None:
        """Count what the backend did with one batch."""
        self.added += applied.added
        self.updated += applied.updated
        self.unchanged += applied.unchanged
        self.deleted += applied.deleted
        self.chunks_written += applied.chunks_written

    def as_dict(self) -> dict[str, object]:
        return {
            "seen": self.seen, "added": self.added, "updated": self.updated, "unchanged": self.unchanged,
            "deleted": self.deleted, "chunks_written": self.chunks_written, "no_acl": self.no_acl,
            "default_acl_applied": self.default_acl_applied, "comments_stripped": self.comments_stripped,
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


def refusing_problems(items: Iterable[LoadItem]) -> Iterator[LoadItem]:
    """`items`, stopping the ingest at the first problem (`IngestError`): the all-or-nothing reading of a file.

    Callers check the whole input first and list every problem; this catches a file that changed since.
    """
    for item in items:
        if isinstance(item, LoadProblem):
            raise IngestError(f"{item.location}: {item.message}; nothing was written")
        yield item


def _admitted(items: Iterable[LoadItem], default_acl: str | None, report: IngestReport,
              held: set[str]) -> Iterator[Document]:
    """The documents to ingest, one at a time: problems and repeated ids are reported, the default ACL applied."""
    for item in items:
        if isinstance(item, LoadProblem):
            report.problems.append(item)
            continue
        report.seen += 1
        if item.doc_id in held:
            report.problems.append(
                LoadProblem(item.source, f"duplicate document id {item.doc_id!r}; first kept", item.source)
            )
            continue
        held.add(item.doc_id)
        report.comments_stripped += item.comments_stripped
        if not item.acl and not item.acl_given:
            if default_acl:
                item = replace(item, acl=(default_acl,), acl_given=True)
                report.default_acl_applied += 1
            else:
                report.no_acl_ids.append(item.doc_id)
        elif not item.acl:
            report.empty_acl_ids.append(item.doc_id)
        yield item


def _same_content(stored: StoredDocument, document: Document, digest: str, salt: str) -> bool:
    """Whether the index holds this content already (under today's fingerprint, or the ACL-mixed older one)."""
    if stored.content_hash == digest:
        return True
    return stored.content_hash == replace(document, acl=stored.acl).legacy_content_hash(salt)


def _stale(known: dict[str, StoredDocument], held: set[str], scope: SyncScope,
           problems: list[LoadProblem]) -> list[str]:
    """Stored documents of the scope's origin that this ingest does not hold, except those whose file failed."""
    failed = {p.source for p in problems if p.source}
    return sorted(doc_id for doc_id, stored in known.items()
                  if stored.origin == scope.origin and doc_id not in held and stored.source not in failed)


@dataclass
class _Batch:
    """Documents waiting to be embedded and written, and ACL-only updates waiting to be written."""

    documents: list[tuple[Document, str, list[Chunk]]] = field(default_factory=list)
    acl_updates: list[AclUpdate] = field(default_factory=list)
    chunks: int = 0

    @property
    def full(self) -> bool:
        return self.chunks >= BATCH_CHUNKS or len(self.acl_updates) >= BATCH_CHUNKS


class _Progress:
    """The progress bar: chunks embedded and files read, shown past `EMBED_STEP` chunks (a small ingest is quiet)."""

    def __init__(self, shown: bool) -> None:
        self.shown = shown
        self.done = 0
        self.files = 0
        self.bar: tqdm | None = None

    def update(self, chunks: int) -> None:
        self.done += chunks
        if self.bar is None and self.shown and self.done > EMBED_STEP:
            self.bar = tqdm(unit="chunk", desc="embedding", file=sys.stderr, initial=self.done - chunks)
        if self.bar is not None:
            self.bar.set_postfix_str(f"{self.files:,} files read", refresh=False)
            self.bar.update(chunks)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _embed(encoder: Encoder, texts: list[str], bar: _Progress) -> np.ndarray:
    if not texts:
        return np.zeros((0, encoder.dimension), dtype=np.float32)
    parts = []
    for start in range(0, len(texts), EMBED_STEP):
        step = texts[start : start + EMBED_STEP]
        parts.append(encoder.encode(step))
        bar.update(len(step))
    return np.vstack(parts)


def _write(session: WriteSession, encoder: Encoder, batch: _Batch, bar: _Progress, report: IngestReport) -> None:
    """Embed the batch's chunks and write the batch into the open session; the caller then lets it go."""
    texts = [f"{c.title}\n{c.text}" for _, _, chunks in batch.documents for c in chunks]
    vectors = _embed(encoder, texts, bar)
    writes, offset = [], 0
    for document, digest, chunks in batch.documents:
        writes.append(DocumentWrite(document, digest, chunks, vectors[offset : offset + len(chunks)]))
        offset += len(chunks)
    if writes or batch.acl_updates:
        report.add(session.apply(WriteBatch(upserts=writes, deletes=[], acl_updates=batch.acl_updates)))


def _plan(document: Document, stored: StoredDocument | None, salt: str, batch: _Batch,
          report: IngestReport) -> None:
    """Count the document unchanged, or add it to the batch: as an ACL-only update, or as chunks to embed."""
    digest = document.content_hash(salt)
    if stored is not None and _same_content(stored, document, digest, salt):
        if stored.content_hash == digest and stored.same_labels(document.acl, document.origin):
            report.unchanged += 1
        else:
            batch.acl_updates.append(AclUpdate(document.doc_id, document.acl, digest, document.origin,
                                               previous_hash=stored.content_hash))
    elif chunks := chunk_document(document):
        batch.documents.append((document, digest, chunks))
        batch.chunks += len(chunks)
    else:
        report.problems.append(LoadProblem(document.source, f"document {document.doc_id!r} has no text",
                                           document.source))


def ingest(
    backend: IndexBackend, encoder: Encoder, items: Iterable[LoadItem], default_acl: str | None = None,
    show_progress: bool = True, scope: SyncScope | None = None,
) -> IngestReport:
    """Add new documents, replace changed ones, relabel those whose ACL alone changed; all or nothing.

    `items` is read once, as it comes: an exception while reading it (or writing) rolls every batch back.
    """
    report = IngestReport()
    known = backend.stored_documents()
    salt = f"{CHUNKER_VERSION}|{encoder.name}"
    held: set[str] = set()
    bar = _Progress(show_progress)
    try:
        with backend.write_session(encoder.name) as session:
            batch = _Batch()
            for document in _admitted(items, default_acl, report, held):
                bar.files = report.seen + len(report.problems)
                _plan(document, known.get(document.doc_id), salt, batch, report)
                if batch.full:
                    _write(session, encoder, batch, bar, report)
                    batch = _Batch()
            _write(session, encoder, batch, bar, report)
            stale = _stale(known, held, scope, report.problems) if scope else []
            removable = scope is not None and scope.remove and all(p.source for p in report.problems)
            if removable and stale:
                report.add(session.apply(WriteBatch(upserts=[], deletes=stale)))
    finally:
        bar.close()
    report.no_acl = len(report.no_acl_ids) + len(report.empty_acl_ids)
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
