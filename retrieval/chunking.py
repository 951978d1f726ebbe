"""Sentence-aware chunking with overlap; paginated documents are chunked page by page (a workbook sheet by sheet).

A chunk also keeps its Markdown as written (the source lines its sentences were read from, see `chunk_markdown`) for
the page to show; the text the reader reads and the verifier checks is the flat form.
"""

from __future__ import annotations

import re

from boundloop.domain.names import normalise_name
from boundloop.domain.sentences import MAX_WORDS, source_sentences
from boundloop.retrieval.chunk_markdown import passage_markdown
from boundloop.retrieval.document_date import document_date
from boundloop.retrieval.documents import Chunk, Document
from boundloop.retrieval.typed_units import Context, chunk_units, page_contexts

CHUNKER_VERSION = "sent-v14"
"""v14: a table typed without its rule line is read under its first row, and a numbering column ('#') names no cell
(v13: chunks carry their typed units; v12: their document's date), so an index written before is re-written by the
next ingest."""
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


def _section_paths(sentences: list[str], title: str) -> list[list[int]]:
    """For each sentence, the headings of the sections it is in (as sentence indexes), outermost first.

    A heading that repeats the document's title is left out: every chunk carries the title already.
    """
    paths: list[list[int]] = []
    open_headings: list[tuple[int, int]] = []
    for i, sentence in enumerate(sentences):
        heading = _HEADING.match(sentence)
        if heading:  # a heading closes the sections at its level and below; its path is its parents
            level = len(heading.group(1))
            open_headings = [(lv, at) for lv, at in open_headings if lv < level]
        paths.append([at for _, at in open_headings])
        if heading and normalise_name(heading.group(2)) != normalise_name(title):
            open_headings.append((len(heading.group(1)), i))
    return paths


def _missing_headings(start: int, window: list[str], paths: list[list[int]], sentences: list[str]) -> list[int]:
    """The headings above a window that begins inside a section, and that the window does not hold itself.

    The window's text starts with them, so a row or a sentence cut off from its heading ('## Tilburg' above a table
    of dates) is still read and found under it.
    """
    return [at for at in paths[start] if sentences[at] not in window] if start < len(paths) else []


def chunk_document(
    document: Document, max_words: int = MAX_WORDS, overlap_words: int = OVERLAP_WORDS
) -> list[Chunk]:
    """The chunks of one document, numbered from 0 in reading order."""
    pages: list[tuple[int | None, str]] = (
        [(i + 1, page) for i, page in enumerate(document.pages)] if document.pages else [(None, document.text)]
    )
    sheets = document.sheets or ()
    dated = document_date(document)
    chunks: list[Chunk] = []
    carried = Context()  # a page starts in the sections and lead-in the page before ended in; a sheet does not
    for page_number, page_text in pages:
        sheet = sheets[page_number - 1] if page_number is not None and page_number <= len(sheets) else None
        units = source_sentences(page_text)
        sentences = [unit.text for unit in units]
        paths = _section_paths(sentences, document.title)
        starts = page_contexts(sentences, document.title, Context() if sheet is not None else carried)
        carried = starts[-1]
        for start, window in _windows(sentences, max_words, overlap_words):
            ordinal = len(chunks)
            headings = _missing_headings(start, window, paths, sentences)
            own = units[start:start + len(window)]
            text = "\n".join([sentences[at] for at in headings] + window)
            chunks.append(
                Chunk(
                    chunk_id=f"{document.doc_id}#{ordinal}",
                    doc_id=document.doc_id,
                    ordinal=ordinal,
                    title=document.title,
                    text=text,
                    source=document.source,
                    page=None if sheet is not None else page_number,
                    sheet=sheet,
                    markdown=passage_markdown(page_text, [units[at].span for at in headings],
                                              [unit.span for unit in own], [c for u in own for c in u.context]),
                    document_date=dated,
                    units=chunk_units(text, document.title, starts[start], dated),
                )
            )
    return chunks
