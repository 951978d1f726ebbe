"""A document's own date, read once at ingest: when it was issued, took effect, was sent or met.

In order: front matter (`date:`, `effective:`, `issued:` ...), a field near the top named like the document's date
('Effective date: 1 September 2024', an e-mail's 'Date: Wed, 12 Mar 2025 ...', 'Meeting date', 'Last updated'),
a minutes' heading date ('Minutes — 14 March 2025'), a date or year in the title, then in the file name, and last
the date the format's loader read from its properties (an Office file's modified day). A field written in a form
no date has ('Effective date: Q3 FY25') gives no date and the next source is read.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from boundloop.domain.dates import read_date
from boundloop.retrieval.documents import Document
from boundloop.retrieval.formats.dispatch import OFFICE_SUFFIXES

FRONT_MATTER_KEYS = ("effective", "effective_date", "effective-date", "date", "issued", "issue_date", "meeting_date",
                     "updated", "last_updated", "last-updated", "published")
"""Front matter keys that date the document, most telling first."""
_FIELD = re.compile(
    r"^[\s>*_-]*(?P<label>effective(?: date| from)?|date(?: of (?:issue|meeting|approval|the meeting))?|"
    r"issued?(?: on| date)?|meeting date|last (?:updated|reviewed|revised|modified)|updated|approved on|"
    r"published|version date|sent)[*_]*\s*:[*_]*\s*(?P<value>\S.*)$",
    re.IGNORECASE)
"""'Effective date: 1 September 2024', '**Issued:** 3 May 2022', 'Date: Wed, 12 Mar 2025' (or a row of a table of
fields, '| Effective date | 1 January 2024 |'): never a review date."""
TOP_LINES = 15
"""Fields are read among the first lines only: a date deep in the text is about something else."""
_MINUTES = re.compile(r"\b(?:minutes|meeting|notes|agenda|memo)\b", re.IGNORECASE)


def field_date(text: str) -> str | None:
    """The date a field near the top gives ('Effective date' before the others); None when none is read."""
    found: dict[bool, str] = {}
    for line in text.splitlines()[:TOP_LINES]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        match = _FIELD.match(f"{cells[0]}: {cells[1]}" if len(cells) >= 2 else line.strip())
        if match and (iso := read_date(match["value"])):
            found.setdefault(match["label"].lower().startswith("effective"), iso)
    return found.get(True) or found.get(False)


def _front_matter(metadata: dict[str, Any]) -> str | None:
    lowered = {str(k).lower(): v for k, v in metadata.items()}
    return next((iso for key in FRONT_MATTER_KEYS if key in lowered and (iso := read_date(str(lowered[key])))), None)


def _heading_date(text: str) -> str | None:
    """'# Minutes — 14 March 2025': the date of a minutes' (meeting's, memo's) first heading line."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return read_date(first) if _MINUTES.search(first) else None


def _name_date(name: str) -> str | None:
    """A date in a title or file name: 'ops-minutes-2024-03-12', 'Travel Policy 2026' (a version is no year)."""
    spaced = " ".join(re.split(r"[_\s]+|(?<=\D)-|-(?=\D)", name))  # dashes between words, not inside 2024-03-12
    return read_date(re.sub(r"\b[vV](?:er|ersion)?\.?\s?\d+(?:[.-]\d+)*\b", " ", spaced))


def document_date(document: Document) -> str | None:
    """The document's date as an ISO string ('2025-03-14', '2025-03', '2025'), or None when it gives none."""
    suffix = PurePosixPath(document.source).suffix.lower()
    loaded = suffix in OFFICE_SUFFIXES or suffix == ".pdf"  # their metadata comes from properties, not front matter
    stem = PurePosixPath(document.source).stem or document.doc_id
    return (None if loaded else _front_matter(document.metadata)) or field_date(document.text) or \
        _heading_date(document.text) or _name_date(document.title) or _name_date(stem) or \
        (read_date(str(document.metadata.get("date", ""))) if loaded else None)
