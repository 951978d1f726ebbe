"""Sentence-aware chunking with overlap; paginated documents are chunked page by page (a workbook sheet by sheet)."""

from __future__ import annotations

import re

from boundloop.domain.names import normalise_name
from boundloop.domain.sentences import MAX_WORDS, split_sentences
from boundloop.retrieval.documents import Chunk, Document

CHUNKER_VERSION = "sent-v10"
OVERLAP_WORDS = 25
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def _windows(sentences: list[str], max_words: int, overlap_words: int) -> list[tuple[int, list[str]]]:
    """Pack sentences into windows of about `max_words`, repeating the tail of each window in the next.

    Each window comes with the index of its first sentence.
    """
    windows: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = count = 0
    fresh = False  # whether `current` holds a sentence not yet in any window
    for i, sentence in enumerate(sentences):
        words = len(sentence.split())
        if fresh and count + words > max_words:
            windows.append((start, current))
            carried: list[str] = []
            carried_words = 0
            for previous in reversed(current):
                n = len(previous.split())
                if carried_words + n > overlap_words:
                    break
                carried.insert(0, previous)
                carried_words += n
            current, count, start = carried, carried_words, i - len(carried)
        current.append(sentence)
        count += words
        fresh = True
    if fresh:
        windows.append((start, current))
    return windows


def _section_paths(sentences: list[str], title: str) -> list[list[str]]:
    """For each sentence, the headings of the sections it is in, outermost first.

    A heading that repeats the document's title is left out: every chunk carries the title already.
    """
    paths: list[list[str]] = []
    open_headings: list[tuple[int, str]] = []
    for sentence in sentences:
        heading = _HEADING.match(sentence)
        if heading:  # a heading closes the sections at its level and below; its path is its parents
            level = len(heading.group(1))
            open_headings = [(lv, line) for lv, line in open_headings if lv < level]
        paths.append([line for _, line in open_headings])
        if heading and normalise_name(heading.group(2)) != normalise_name(title):
            open_headings.append((len(heading.group(1)), sentence))
    return paths


def _with_section(start: int, window: list[str], paths: list[list[str]]) -> str:
    """The window's text; one that begins inside a section starts with that section's headings.

    So a row or a sentence cut off from its heading ('## Tilburg' above a table of dates) is still read and found
    under it.
    """
    missing = [line for line in paths[start] if line not in window] if start < len(paths) else []
    return "\n".join(missing + window)


def chunk_document(
    document: Document, max_words: int = MAX_WORDS, overlap_words: int = OVERLAP_WORDS
) -> list[Chunk]:
    """The chunks of one document, numbered from 0 in reading order."""
    pages: list[tuple[int | None, str]] = (
        [(i + 1, page) for i, page in enumerate(document.pages)] if document.pages else [(None, document.text)]
    )
    sheets = document.sheets or ()
    chunks: list[Chunk] = []
    for page_number, page_text in pages:
        sheet = sheets[page_number - 1] if page_number is not None and page_number <= len(sheets) else None
        sentences = split_sentences(page_text)
        paths = _section_paths(sentences, document.title)
        for start, window in _windows(sentences, max_words, overlap_words):
            ordinal = len(chunks)
            chunks.append(
                Chunk(
                    chunk_id=f"{document.doc_id}#{ordinal}",
                    doc_id=document.doc_id,
                    ordinal=ordinal,
                    title=document.title,
                    text=_with_section(start, window, paths),
                    source=document.source,
                    page=None if sheet is not None else page_number,
                    sheet=sheet,
                )
            )
    return chunks
