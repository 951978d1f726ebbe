"""Counting the rows of a table that name something.

'How many people in the who's who are based in Leeds?' counts the directory's rows with a cell that is 'Leeds'
('Office: Leeds'). A count is only as good as the table it reads, so the whole table must be held: a table that
runs beyond the chunks held (a gap in its chunks, or the last one held ending in a row) is fetched first.
"""

from __future__ import annotations

import re
from collections import Counter

from boundloop.domain.models import Evidence
from boundloop.domain.names import normalise_name
from boundloop.domain.text import stems
from boundloop.reasoners.offline.answer_types import Expected, head_phrase
from boundloop.reasoners.offline.flags import columns, distinct, flag
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.units import cells_of, chunk_ordinal

_HOW_MANY = re.compile(r"^\s*how many\b", re.IGNORECASE)
_PEOPLE = frozenset(stems("people person persons staff employees colleagues members workers"))
"""Nouns that count people: a table of people has a column of their names."""
_NAMED_ROW = re.compile(r"\b(?:name|employee|person|staff member|member|colleague|contact)\b", re.IGNORECASE)
_TOTAL = re.compile(r"\b(?:combined|total|sum|altogether|all together|in all|added up|between them|across "
                    r"(?:both|all|the|every))\b", re.IGNORECASE)
"""A question asking for the sum of a column over the rows it names."""
_NUMBER = re.compile(r"(?P<before>(?:[A-Z]{3}|[£€$])\s?)?(?P<number>\d[\d,]*(?:\.\d+)?)\s*(?:[A-Za-z%]+\.?)?\s*"
                     r"(?:\([^)]*\))?\s*$")
"""A cell that is one number (after a currency, before a unit or a remark): '10', 'GBP 2.50', '1 (3 days lost)';
not '09:00' nor a range ('GBP 15,000.01 – GBP 75,000')."""
_STATED = re.compile(r"\s*(?:\*\*)?(?:total|subtotal|grand total|sum|all sites|overall)\b", re.IGNORECASE)
_TOTAL_WORDS = frozenset(stems("combined total sum altogether overall"))
MIN_ROWS = 2
"""A table: at least this many rows of one document held, each with cells."""


def asks_count(question: str) -> bool:
    """Whether the question asks how many ('How many people are based in Leeds?')."""
    return _HOW_MANY.search(question) is not None


def asks_tally(question: str) -> bool:
    """Whether the question counts or adds up rows ('how many ...', 'the combined ...', 'across both sites')."""
    return asks_count(question) or _TOTAL.search(question) is not None


def counted_noun(question: str, expected: Expected) -> set[str]:
    """The stems of what is counted or added up: the question's head phrase and the expected answer's noun.

    Not 'total' or 'combined' themselves: 'the total bonus pool' adds up a bonus pool, not a 'Total cost' column.
    """
    asked = stems(" ".join(head_phrase(question))) | (stems(expected.head) if expected.head else set())
    return asked - _TOTAL_WORDS


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
    if not names or not asks_count(question):
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
    """The rows of the table a 'how many' or 'total' question counts or adds up; none without such a table.

    Rows marked per column the question names ('How many holidays does Rotterdam get?'), else rows naming its names
    in a cell ('How many people are based in Leeds?').
    """
    if rows := summed_rows(question, readings, names, asked):
        return rows
    if not asks_count(question):
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


def _column(reading: Reading, asked: set[str]) -> str | None:
    """The row's cell under the header that names what is asked ('Capacity (people)' for 'capacity')."""
    best = max(reading.unit.cells, key=lambda c: len(asked & stems(c.header)) if c.header else 0, default=None)
    return best.value if best is not None and best.header and asked & stems(best.header) else None


def _about(reading: Reading, names: list[str]) -> bool:
    """Whether the row names one of the names in a cell, or sits under a heading or lead that does."""
    above = stems(f"{reading.unit.heading} {reading.unit.lead}")
    return _naming(reading, names) or any((words := stems(n)) and words <= above for n in names)


def summed_rows(question: str, readings: list[Reading], names: list[str], asked: set[str]) -> list[Reading]:
    """The rows a 'combined', 'total' or 'across both' question adds up.

    One table's rows with a number under the header naming what is asked; only those about the question's names,
    for the names any row is about ('Tilburg' in a cell, or in the heading 'Tilburg rooms').
    """
    if not _TOTAL.search(question) or not asked:
        return []
    tables: dict[tuple[str, frozenset[str]], list[Reading]] = {}
    for r in readings:
        if (value := _column(r, asked)) is not None and _NUMBER.match(value.strip()):
            tables.setdefault((r.unit.evidence.doc_id, _columns(r)), []).append(r)
    if not tables:
        return []
    about = {key: [r for r in rows if all(_about(r, [n]) for n in names if any(_about(o, [n]) for o in rows))]
             for key, rows in tables.items()}  # filtered by the names some row of the table is about

    def fit(key: tuple[str, frozenset[str]]) -> tuple[bool, int, int]:
        """Rows about the question's names first, then the header saying most of what is asked, then the most."""
        return any(_about(r, names) for r in tables[key]), len(asked & stems(" ".join(key[1]))), len(about[key])

    best = max(tables, key=fit)
    rows = distinct(about[best])
    if any(_STATED.match(cell.value) for r in tables[best] for cell in r.unit.cells):
        return []  # the table states its own total ('Total: EUR 1.2m'): the ordinary reading reads it
    return rows if len(rows) >= MIN_ROWS else []


def total(question: str, readings: list[Reading], names: list[str], asked: set[str]
          ) -> tuple[str, list[Reading]] | None:
    """'What's the combined capacity of all the Tilburg meeting rooms?': the sum of the column, with its rows."""
    rows = summed_rows(question, readings, names, asked)
    found = [(_NUMBER.match((_column(r, asked) or "").strip()), r) for r in rows]
    numbers = [m for m, _ in found if m]
    if not rows or len(numbers) < len(rows):
        return None
    units = {(m["before"] or "").strip() for m in numbers}
    amounts = [float(m["number"].replace(",", "")) for m in numbers]
    whole = all(a.is_integer() for a in amounts)
    added = f"{sum(amounts):,.0f}" if whole else f"{sum(amounts):,.2f}"
    if len(units) != 1:
        return None  # 'GBP 2.50' and 'EUR 2.80' do not add up
    return f"{units.pop()} {added}".strip(), rows


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
