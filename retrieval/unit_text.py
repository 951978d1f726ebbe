"""How a unit's text reads: without its Markdown marks, its fields and cells, and whether it is a heading.

Shared by ingest (`retrieval.typed_units`, which stores each chunk's units) and the reader
(`reasoners.offline.units`), so both read a line alike.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from boundloop.domain.contacts import EMAIL, PHONE
from boundloop.domain.names import normalise_name

BULLET = re.compile(r"^\s*(?:[-*+•>]\s+|\d+[.)]\s+|#{1,6}\s+)+")
_CELL = re.compile(r"^([^:;]{1,60}?):\s+(.+)$")
PAIR = re.compile(r"^([^;:]{1,40});\s(?=\S)")
"""A line of a plain-text table laid out in columns, as ingest writes it ('Monday to Friday; 8am - 4pm'); a row of
fields ('Name: ...; Role: ...') is none."""
MARKDOWN_HEADING = re.compile(r"^(#{1,6})\s")


class Cell(NamedTuple):
    """One 'Header: value' field of a table row or key-value line; a row label has no header."""

    header: str
    value: str


def plain(text: str) -> str:
    """Markdown bullets, heading marks, emphasis and code ticks removed; spaces folded."""
    text = BULLET.sub("", text.strip())
    text = re.sub(r"\*\*([^*]+)\*\*|__([^_]+)__", lambda m: m.group(1) or m.group(2), text)
    text = re.sub(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])|(?<!\w)_([^_\n]+)_(?!\w)", lambda m: m.group(1) or m.group(2),
                  text)
    text = text.replace("`", "").replace("|", " ")
    return " ".join(text.split())


def cells_of(text: str) -> tuple[Cell, ...]:
    """The fields of a row ('Label; Header: value; ...') or key-value line ('Europe: EUR 55 per day').

    A part without a header or colon after a field goes on that field's value: only a row's first part is its label.
    """
    parts = [p.strip() for p in plain(text).split("; ") if p.strip()]
    cells: list[Cell] = []
    for part in parts:
        match = _CELL.match(part)
        if match and len(match.group(1).split()) <= 6:
            cells.append(Cell(match.group(1).strip(), match.group(2).strip()))
        elif cells and cells[-1].header and ": " not in part:  # 'Notes: Next to the staff room; can be noisy'
            cells[-1] = Cell(cells[-1].header, f"{cells[-1].value}; {part}")
        else:
            cells.append(Cell("", part))
    if any(c.header for c in cells) and (len(cells) > 1 or len(parts) == 1):
        return tuple(cells)
    return ()


def headerless_cells(text: str) -> tuple[Cell, ...]:
    """The cells of a table row that has no header row; () for any other line.

    '| Leeds | 12 |' (a Markdown table with no rule line under its first row), or 'Monday to Friday; 8am - 4pm' (a
    plain-text table's columns).
    """
    stripped = text.strip()
    if stripped.startswith("|") and stripped.count("|") >= 3:
        values = [" ".join(c.split()) for c in stripped.strip("|").split("|")]
    elif PAIR.match(stripped):
        values = [c.strip() for c in stripped.split("; ")]
    else:
        return ()
    return tuple(Cell("", value) for value in values if value)


def heading_text(sentence: str) -> str:
    """A heading as its path shows it: without marks, its section number kept ('## 5. Approval' is '5. Approval')."""
    number = re.match(r"^(?:#{1,6}\s+)?(\d+(?:\.\d+)*[.)]?)\s+\S", sentence.strip())
    return f"{number.group(1)} {plain(sentence)}" if number and not plain(sentence).startswith(number.group(1)) \
        else plain(sentence)


def heading_level(sentence: str) -> int:
    """A Markdown heading's level ('## Leeds' is 2); 7 for a heading written without marks (a short label line)."""
    marks = MARKDOWN_HEADING.match(sentence.strip())
    return len(marks.group(1)) if marks else 7


CONTACT = re.compile(f"{PHONE.pattern}|{EMAIL.pattern}", re.IGNORECASE)
"""A phone number, extension or e-mail address on a line: a line giving a contact is no heading."""


def is_heading(sentence: str, title: str, following: bool) -> bool:
    """Markdown headings, the title line, and short label lines (no full stop, no fields) followed by text."""
    stripped = sentence.strip()
    if stripped.startswith("#"):
        return True
    if normalise_name(plain(stripped)) in {normalise_name(title), ""}:
        return True
    words = plain(stripped).split()
    if PAIR.match(stripped) or stripped.startswith("|"):  # 'Saturday; 9am - 1pm', '| York | 14 |': table rows
        return False
    if CONTACT.search(stripped):
        return False  # 'Priya Raman, Contact Centre Manager, ext. 5101' under 'SITE MANAGER' gives a contact
    return following and len(words) <= 7 and not re.search(r"[.!?:;]$|:\s", stripped) and \
        not BULLET.match(stripped) and bool(words) and words[0][:1].isupper()


def is_title(sentence: str, title: str) -> bool:
    """Whether a heading line repeats the document's title: no section of its own."""
    return normalise_name(plain(sentence)) in {normalise_name(title), ""}
