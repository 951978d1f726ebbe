"""The record every format reader returns, and the Markdown pieces they share (tables, dates, titles)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Attachment:
    """A file carried inside another (an e-mail's attachment): its name and bytes."""

    name: str
    data: bytes


@dataclass(frozen=True)
class OfficeText:
    """One file as text: `pages` holds the parts the reader cites (slides; sheets, which `sheets` names)."""

    title: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)
    pages: tuple[str, ...] | None = None
    sheets: tuple[str, ...] | None = None
    attachments: tuple[Attachment, ...] = ()


def cell_text(value: object) -> str:
    """A table cell on one line: a '|' in it would split the cell, a line break would end the row."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat(sep=" ")
    return " ".join(str(value).replace("|", "/").split())


def markdown_table(rows: list[list[str]]) -> list[str]:
    """Rows as Markdown table lines, the first row the header (the chunker reads each row under its headers)."""
    rows = [row for row in rows if any(cell for cell in row)]
    if not rows:
        return []
    width = max(len(row) for row in rows)
    padded = [row + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(padded[0]) + " |", "| " + " | ".join(["---"] * width) + " |"]
    return lines + ["| " + " | ".join(row) + " |" for row in padded[1:]]


def property_metadata(author: str | None, created: datetime | None, modified: datetime | None) -> dict[str, Any]:
    """Document properties as metadata; the modified (else created) day is the document's `date`."""
    meta: dict[str, Any] = {}
    if author and author.strip():
        meta["author"] = author.strip()
    if created:
        meta["created"] = created.isoformat()
    if modified:
        meta["modified"] = modified.isoformat()
    if modified or created:
        meta["date"] = (modified or created).date().isoformat()  # type: ignore[union-attr]
    return meta
