"""The records that flow through ingest and search: documents, chunks, load problems and search hits."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from boundloop.retrieval.typed_units import ChunkUnits, TypedUnit

MAX_TITLE_CHARS = 200
"""A longer title (a text file's first line with no line break in it, say) is cut at a word: every chunk carries its
document's title into the encoder and the reader, so a title must cost little whatever the file holds."""


def bounded_title(title: str) -> str:
    """`title`, or its first MAX_TITLE_CHARS characters cut back to a word, with an ellipsis."""
    if len(title) <= MAX_TITLE_CHARS:
        return title
    cut = title[:MAX_TITLE_CHARS]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip() + "…"


@dataclass(frozen=True)
class Document:
    """One source document with its access list. `pages` is set for paginated sources (PDF).

    `origin` is the real path of the file or folder it was ingested from: `ingest --sync` removes the documents of
    an origin that it no longer holds. It is bookkeeping, not content: it is left out of the fingerprint.
    """

    doc_id: str
    title: str
    text: str
    acl: tuple[str, ...]
    source: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    pages: tuple[str, ...] | None = None
    sheets: tuple[str, ...] | None = None
    """A workbook's sheet names, one per part in `pages`: its passages cite the sheet, not a page number."""
    origin: str = ""
    acl_given: bool = True
    """False when the source named no ACL at all (`--default-acl` applies); an explicit empty list is given."""
    comments_stripped: int = 0
    """HTML comments the loader dropped from the text and title (counted by ingest); not content, not hashed."""

    def __post_init__(self) -> None:
        if len(self.title) > MAX_TITLE_CHARS:
            object.__setattr__(self, "title", bounded_title(self.title))

    def content_hash(self, salt: str) -> str:
        """A fingerprint of everything that shapes the document's chunks; `salt` names chunker and encoder.

        The ACL is left out: a document whose ACL alone changed keeps its chunks and vectors (see `ingest`).
        """
        sheets = [self.sheets] if self.sheets else []  # absent otherwise: other documents keep their fingerprint
        return _digest([self.title, self.text, self.source, self.metadata, self.pages, *sheets, salt])

    def legacy_content_hash(self, salt: str) -> str:
        """The fingerprint that indexes written before ACL-only updates stored: content and ACL together.

        Recognising it upgrades those indexes by rewriting ACLs, instead of re-encoding every document once.
        """
        sheets = [self.sheets] if self.sheets else []
        return _digest([self.title, self.text, sorted(self.acl), self.source, self.metadata, self.pages, *sheets,
                        salt])


def _digest(parts: list[Any]) -> str:
    payload = json.dumps(parts, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class LoadProblem:
    """A file or line that could not be read; reported and skipped.

    `source` is the document source the file would have had (folders), so that a sync keeps that document; empty
    when unknown (a bad JSONL line).
    """

    location: str
    message: str
    source: str = ""


@dataclass(frozen=True)
class Chunk:
    """A passage of a document, with its provenance."""

    chunk_id: str
    doc_id: str
    ordinal: int
    title: str
    text: str
    source: str
    page: int | None
    sheet: str | None = None
    """The workbook sheet the passage is on; None when it is not on one."""
    markdown: str = ""
    """The source lines the text was read from, as written, for people (see `chunk_markdown`); '' when unknown."""
    document_date: str | None = None
    """Its document's own date, ISO ('2025-03-14', '2025-03', '2025'; see `document_date`); None when undated."""
    units: ChunkUnits | None = None
    """Its typed units and the headings and lead-in it starts under (see `typed_units`); None when not read."""


class SearchHit(BaseModel):
    """One permitted chunk returned by a search, with each retriever's rank and score beside the fused one."""

    doc_id: str = Field(description="The document the chunk comes from.")
    chunk_id: str = Field(description="Stable chunk id: '<doc_id>#<ordinal>'.")
    title: str = Field(description="The document's title.")
    text: str = Field(description="The chunk's text.")
    score: float = Field(description="The fused (reciprocal rank fusion) score; higher is better.")
    source: str = Field(default="", description="Where the document came from (path or URL).")
    page: int | None = Field(default=None, description="1-based page for paginated sources (PDF page, slide).")
    sheet: str | None = Field(default=None, description="The workbook sheet the passage is on; null otherwise.")
    document_date: str | None = Field(default=None, description="The document's own date, ISO ('2025-03-14', "
                                      "'2025-03', '2025'); null when it gives none or was indexed before dates.")
    heading_path: list[str] | None = Field(default=None, description="The headings the chunk starts under, from "
                                           "its document's top; null when indexed before units were stored.")
    lead: str = Field(default="", description="The lead-in its first lines read under, held by an earlier chunk.")
    units: list[TypedUnit] | None = Field(default=None, description="Its typed units (heading, field, row, item, "
                                          "sentence); null when indexed before units were stored.")
    bm25_rank: int | None = Field(default=None, description="1-based rank in the BM25 list, if present.")
    bm25_score: float | None = Field(default=None, description="BM25 score (higher is better).")
    dense_rank: int | None = Field(default=None, description="1-based rank in the dense list, if present.")
    dense_score: float | None = Field(default=None, description="Cosine similarity to the query.")
