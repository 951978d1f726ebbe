"""Text, pages, title and properties of a PDF; pypdf's warnings are caught and become the reason a file is skipped."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from boundloop.retrieval.formats.office_text import property_metadata

TITLE_MAX = 120  # a first line longer than this is a paragraph, not a heading


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _parser_notes() -> Iterator[list[str]]:
    """Collect the warnings pypdf logs or raises during the block, and keep them off the terminal."""
    logger = logging.getLogger("pypdf")
    handler, propagate = _Collect(), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield handler.messages
            handler.messages.extend(str(w.message) for w in caught)
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _first_line(pages: tuple[str, ...]) -> str:
    for page in pages:
        for line in page.splitlines():
            if line.strip():
                line = line.strip()
                return line if len(line) <= TITLE_MAX else ""
    return ""


def _date(info: Any, name: str) -> datetime | None:
    """A date of the document information dictionary; None when absent or not a PDF date ('D:20260302093000Z')."""
    if info is None:  # a PDF without a document information dictionary
        return None
    try:
        value = getattr(info, name)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, datetime) else None


def read_pdf(path: Path) -> tuple[str, tuple[str, ...], dict[str, Any]]:
    """(title, page texts, properties); `ValueError` says why not.

    The title is the PDF's metadata title, else its first line; author and dates become metadata as an Office
    file's do (`date` is the modified day).
    """
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    with _parser_notes() as notes:
        try:
            reader = PdfReader(str(path))
            pages = tuple((page.extract_text() or "").strip() for page in reader.pages)
            metadata = reader.metadata
            title = str(metadata.get("/Title") or "").strip() if metadata else ""
            author = str(metadata.get("/Author") or "") if metadata else ""
            meta = property_metadata(author, _date(metadata, "creation_date"), _date(metadata, "modification_date"))
        except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
            reason = "; ".join(dict.fromkeys([*notes[:2], str(exc) or type(exc).__name__]))
            raise ValueError(f"unreadable PDF: {reason}") from None
    if not any(pages):
        reason = f" ({'; '.join(notes[:2])})" if notes else ""
        raise ValueError(f"no extractable text in the PDF (scanned pages need OCR first){reason}")
    return title or _first_line(pages), pages, meta
