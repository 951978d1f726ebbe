"""Sentence-aware chunking with overlap; paginated documents are chunked page by page."""

from __future__ import annotations

import re

from retrieval.documents import Chunk, Document

CHUNKER_VERSION = "sent-v1"
MAX_WORDS = 120
OVERLAP_WORDS = 25

_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9])")


def split_sentences(text: str) -> list[str]:
    """Split text into sentences, keeping paragraph boundaries as sentence boundaries."""
    sentences: list[str] = []
    for paragraph in _PARAGRAPH.split(text):
        paragraph = " ".join(paragraph.split())
        if paragraph:
            sentences.extend(s for s in _SENTENCE.split(paragraph) if s)
    return sentences


def _windows(sentences: list[str], max_words: int, overlap_words: int) -> list[str]:
    """Pack sentences into windows of about `max_words`, repeating the tail of each window in the next."""
    windows: list[str] = []
    current: list[str] = []
    count = 0
    fresh = False  # whether `current` holds a sentence not yet in any window
    for sentence in sentences:
        words = len(sentence.split())
        if fresh and count + words > max_words:
            windows.append(" ".join(current))
            carried: list[str] = []
            carried_words = 0
            for previous in reversed(current):
                n = len(previous.split())
                if carried_words + n > overlap_words:
                    break
                carried.insert(0, previous)
                carried_words += n
            current, count = carried, carried_words
        current.append(sentence)
        count += words
        fresh = True
    if fresh:
        windows.append(" ".join(current))
    return windows


def chunk_document(
    document: Document, max_words: int = MAX_WORDS, overlap_words: int = OVERLAP_WORDS
) -> list[Chunk]:
    """The chunks of one document, numbered from 0 in reading order."""
    pages: list[tuple[int | None, str]] = (
        [(i + 1, page) for i, page in enumerate(document.pages)] if document.pages else [(None, document.text)]
    )
    chunks: list[Chunk] = []
    for page_number, page_text in pages:
        for window in _windows(split_sentences(page_text), max_words, overlap_words):
            ordinal = len(chunks)
            chunks.append(
                Chunk(
                    chunk_id=f"{document.doc_id}#{ordinal}",
                    doc_id=document.doc_id,
                    ordinal=ordinal,
                    title=document.title,
                    text=window,
                    source=document.source,
                    page=page_number,
                )
            )
    return chunks
