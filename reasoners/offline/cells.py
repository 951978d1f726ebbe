"""Table cells: how well a header names what is asked, and what a cell's value is.

Where each cell stands in its row's text, whether its column holds identifiers (extensions, rooms) rather than
counts, and whether its value has the form of its kind (a phone number's digits).
"""

from __future__ import annotations

import re

from boundloop.domain.text import stem, stems
from boundloop.reasoners.offline.answer_types import Expected
from boundloop.reasoners.offline.spans import spans
from boundloop.reasoners.offline.units import Cell
from boundloop.reasoners.offline.vocabulary import words

_KIND_HEADERS: dict[str, frozenset[str]] = {
    "phone": words("headers_phone"),
    "email": words("headers_email"),
    "url": words("headers_url"),
    "room": words("headers_room"),
    "person": words("headers_person"),
    "code": words("headers_code"),
    "date": words("headers_date"),
    "time": words("headers_time"),
    "place": words("headers_place"),
}
_IDENTIFIER_HEADERS = words("identifier_headers")
"""Columns whose numbers name or reach something ('Ext.: 4127', 'Room: 3.08'): never a count or an amount."""


def identifier_column(cell: Cell) -> bool:
    """Whether a cell's header says its numbers name or reach something ('Ext.', 'Room'), not count."""
    return bool(set(re.findall(r"[a-z-]+", cell.header.lower())) & _IDENTIFIER_HEADERS)


def cell_fit(cell: Cell, expected: Expected, question_stems: set[str]) -> float:
    """How strongly a cell's header says it holds what is asked.

    It names the head noun (1.0), is a header word of the kind (0.8), or is a column the question names (0.6). A
    head that is only the kind's own word ('what time does the handover start') names no column: a header naming
    two of the question's words ('Handover starts') says more than 'Times' (0.9).
    """
    if not cell.header:
        return 0.0
    header = stems(cell.header)
    generic = expected.head == expected.kind
    if expected.head and stem(expected.head) in header and not generic:
        return 1.0
    if generic and len(header & question_stems - {stem(expected.head)}) >= 2:
        return 0.9
    words = set(re.findall(r"[a-z-]+", cell.header.lower()))
    if words & _KIND_HEADERS.get(expected.kind, set()) or generic and stem(expected.head) in header:
        return 0.8
    if header & question_stems:
        return 0.6
    return 0.0


def cell_offsets(text: str, cells: tuple[Cell, ...]) -> list[tuple[Cell, tuple[int, int]]]:
    """Where each cell's value stands in the unit's plain text."""
    found, at = [], 0
    for cell in cells:
        start = text.find(cell.value, at)
        if start >= 0:
            found.append((cell, (start, start + len(cell.value))))
            at = start + len(cell.value)
    return found


def literal(value: str, kind: str) -> bool:
    """Whether a cell's value has the form of its kind (a phone number's digits, an address's @)."""
    if spans(kind, value):
        return True
    return kind == "phone" and re.fullmatch(r"[+\d][\d\s().-]{2,}", value) is not None
