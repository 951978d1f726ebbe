"""Counting the rows of a table that name something.

'How many people in the who's who are based in Leeds?' counts the directory's rows with a cell that is 'Leeds'
('Office: Leeds'). A count is only as good as the table it reads, so the whole table must be held: a table that
runs beyond the chunks held (a gap in its chunks, or the last one held ending in a row) is fetched first.
"""

from __future__ import annotations

import re
from collections import Counter

from domain.models import Evidence
from domain.text import stems
from reasoners.offline.flags import columns, distinct, flag
from reasoners.offline.reading import Reading
from reasoners.offline.units import cells_of, chunk_ordinal
from retrieval.titles import normalise_name

_HOW_MANY = re.compile(r"^\s*how many\b", re.IGNORECASE)
_PEOPLE = frozenset(stems("people person persons staff employees colleagues members workers"))
"""Nouns that count people: a table of people has a column of their names."""
_NAMED_ROW = re.compile(r"\b(?:name|employee|person|staff member|member|colleague|contact)\b", re.IGNORECASE)
MIN_ROWS = 2
"""A table: at least this many rows of one document held, each with cells."""


def _naming(reading: Reading, names: list[str]) -> bool:
    keys = {normalise_name(n) for n in names}
    return any(cell.header and normalise_name(cell.value) in keys for cell in reading.unit.cells)


def _counted(rows: list[Reading], asked: set[str]) -> bool:
    """Whether the rows are what the question counts.

    People in a table with their names; else things its column headers, heading or lead name ('Holiday' for 'how
    many holidays', not 'parking' in a row's own text).
    """
    first = rows[0].unit
    if asked & _PEOPLE:
        return any(_NAMED_ROW.search(cell.header) for cell in first.cells)
    return bool(asked & stems(" ".join([first.heading, first.lead, *(cell.header for cell in first.cells)])))


def _columns(reading: Reading) -> frozenset[str]:
    return frozenset(normalise_name(cell.header) for cell in reading.unit.cells if cell.header)


def table_naming(question: str, readings: list[Reading], names: list[str], asked: set[str]) -> list[Reading]:
    """The rows held of the table whose rows name the question's names in a cell, for a 'how many' question.

    A table is the rows of one document with the same columns; every row of it is returned, not only those naming
    them. None when there is no such table or its rows are not what the question counts (`asked`: the stems of the
    counted noun phrase).
    """
    if not names or not _HOW_MANY.search(question):
        return []
    tables: dict[tuple[str, frozenset[str]], list[Reading]] = {}
    for r in readings:
        if len(r.unit.cells) > 1:
            tables.setdefault((r.unit.evidence.doc_id, _columns(r)), []).append(r)
    fitting = [rows for rows in tables.values() if len(distinct(rows)) >= MIN_ROWS and _counted(rows, asked)]
    naming = {id(rows): len(distinct([r for r in rows if _naming(r, names)])) for rows in fitting}
    best = max(fitting, key=lambda rows: naming[id(rows)], default=[])
    return best if best and naming[id(best)] else []


def counted_rows(question: str, readings: list[Reading], names: list[str], asked: set[str]) -> list[Reading]:
    """The rows of the table a 'how many' question counts; none without such a table.

    Rows marked per column the question names ('How many holidays does Rotterdam get?'), else rows naming its names
    in a cell ('How many people are based in Leeds?').
    """
    if not _HOW_MANY.search(question):
        return []
    if cols := columns(readings, names):
        flagged = [r for r in readings if flag(r, cols[0]) is not None]
        table = Counter(r.unit.evidence.doc_id for r in flagged).most_common(1)[0][0]
        rows = [r for r in flagged if r.unit.evidence.doc_id == table]
        return rows if _counted(rows, asked) else []
    return table_naming(question, readings, names, asked)


def tally(question: str, readings: list[Reading], names: list[str], asked: set[str]
          ) -> tuple[str, list[Reading]] | None:
    """How many rows of the table name the question's names ('Office: Leeds'), with those rows; None without one."""
    rows = distinct([r for r in table_naming(question, readings, names, asked) if _naming(r, names)])
    return (str(len(rows)), rows) if rows else None


def unheld(rows: list[Reading], evidence: list[Evidence]) -> str | None:
    """The title of the table's document when it may run beyond the chunks held; None when it is all held.

    A chunk of its document before the last held is missing, or the last held ends in one of its rows.
    """
    if not rows:
        return None
    doc = rows[0].unit.evidence.doc_id
    held = {o: e for e in evidence if e.doc_id == doc and (o := chunk_ordinal(e.chunk_id)) is not None}
    if not held:
        return None
    last = max(held)
    ends_in_row = len(cells_of(held[last].text.rstrip().split("\n")[-1])) > 1
    return held[last].title if set(range(last + 1)) - set(held) or ends_in_row else None
