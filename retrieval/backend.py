"""The small interface every index backend implements, and the records that cross it.

Every read takes an `AccessFilter`: there is no way to ask a backend for chunks without one.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.documents import Chunk, Document
from boundloop.retrieval.typed_units import ChunkUnits


class Encoder(Protocol):
    """A dense encoder: LangChain `Embeddings` plus a batch `encode`, a stable `name` and a `dimension`."""

    name: str
    dimension: int

    def encode(self, texts: list[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class Candidate:
    """A permitted chunk id with one retriever's score (higher is better)."""

    chunk_id: str
    score: float


@dataclass(frozen=True)
class StoredChunk:
    """A chunk as read back from the index, with its document's ACL."""

    chunk_id: str
    doc_id: str
    title: str
    text: str
    source: str
    page: int | None
    acl: frozenset[str]
    sheet: str | None = None
    markdown: str = ""
    """The chunk's source lines as written; '' for chunks stored before the index kept them."""
    document_date: str | None = None
    """Its document's date (ISO); None when undated or stored before the index kept dates."""
    units: ChunkUnits | None = None
    """Its typed units and where it starts; None when stored before the index kept them."""


@dataclass(frozen=True)
class DocumentWrite:
    """A new or changed document with its chunks and their vectors (row i of `vectors` is chunk i)."""

    document: Document
    content_hash: str
    chunks: list[Chunk]
    vectors: np.ndarray


@dataclass(frozen=True)
class AclUpdate:
    """A document whose content is unchanged and whose ACL (or origin) is new.

    Its rows take the ACL and origin; its chunks and vectors stay.
    """

    doc_id: str
    acl: tuple[str, ...]
    content_hash: str
    origin: str = ""
    previous_hash: str = ""
    """The stored fingerprint the ingest compared against (an older scheme's, when it upgrades one)."""


@dataclass(frozen=True)
class StoredDocument:
    """What an index keeps of a document to tell what a later ingest changes, and where it came from."""

    content_hash: str
    acl: tuple[str, ...]
    source: str = ""
    origin: str = ""

    def same_labels(self, acl: tuple[str, ...], origin: str) -> bool:
        return set(self.acl) == set(acl) and self.origin == origin


@dataclass
class Applied:
    """What a backend did with a batch, judged against the index as it was inside the write transaction."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0
    chunks_written: int = 0


@dataclass
class WriteBatch:
    """Changes a backend applies all or nothing: one ingest's whole change, or one part of it in a `WriteSession`."""

    upserts: list[DocumentWrite]
    deletes: list[str]
    acl_updates: list[AclUpdate] = field(default_factory=list)


class WriteSession(Protocol):
    """One transaction that stays open while an ingest hands it its batches in turn.

    An ingest embeds a batch, applies it and lets it go, so memory holds one batch, not the whole input. The
    transaction begins with the first batch that is applied (a session that applies none never takes the write
    lock) and commits when the session's `with` block ends; an exception there rolls every batch back. Searches
    meanwhile see the index as it was.
    """

    def apply(self, batch: WriteBatch) -> Applied:
        """Reconcile the batch under the write lock and write it, uncommitted (see `IndexBackend.apply`)."""
        ...


class IndexBackend(Protocol):
    """Storage and candidate generation. Fusion and hit assembly live in `retrieval.search`."""

    @property
    def encoder_name(self) -> str | None: ...

    def keyword_candidates(
        self, query: str, access: AccessFilter, limit: int, deadline: float | None = None
    ) -> list[Candidate]:
        """Full-text candidates; with `deadline` (`time.monotonic()`), the query stops there: `SearchTimeout`."""
        ...

    def dense_candidates(self, vector: np.ndarray, access: AccessFilter, limit: int) -> list[Candidate]: ...

    def title_candidates(self, names: list[str], access: AccessFilter, limit: int) -> list[Candidate]:
        """Lead chunks of permitted documents whose title keys match a name (see `retrieval.titles`)."""
        ...

    def load_chunks(self, chunk_ids: list[str], access: AccessFilter) -> dict[str, StoredChunk]: ...

    def stored_documents(self) -> dict[str, StoredDocument]: ...

    def apply(self, batch: WriteBatch, encoder_name: str | None) -> Applied:
        """Write the batch in one transaction, reconciled first with what the index holds under the write lock.

        See `retrieval.write_plan.reconcile`: the counts stay right when two ingests overlap.
        """
        ...

    def write_session(self, encoder_name: str | None) -> AbstractContextManager[WriteSession]:
        """Batches applied in turn inside one transaction, committed at the end of the `with` block, or not at all."""
        ...

    def stats(self) -> dict[str, int]: ...

    def close(self) -> None: ...
