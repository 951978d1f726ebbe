"""Tables that mark each row per column with yes or no.

Which holidays each office observes, which rooms have a projector: 'Rotterdam: Yes; Leeds: –' says the day is off
in Rotterdam and not in Leeds.

Such a table answers 'Is Ascension Day a day off in Leeds?' (the row's Leeds cell), 'Which holidays do both Leeds
and Gdansk observe?' (the rows marked in both columns) and 'How many holidays does Rotterdam get?' (the rows
marked in its column).
"""

from __future__ import annotations

from boundloop.domain.names import normalise_name
from boundloop.domain.text import stems
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.vocabulary import words

_YES = words("flag_yes")
_NO = words("flag_no")


def flag(reading: Reading, name: str) -> bool | None:
    """The yes/no mark of the row's column named `name`; None when it has no such column or the cell is no mark."""
    wanted = stems(name)
    for cell in reading.unit.cells:
        if cell.header and (normalise_name(cell.header) == normalise_name(name) or
                            (wanted and wanted <= stems(cell.header))):
            value = cell.value.strip().lower().rstrip(".")
            return True if value in _YES else False if value in _NO else None
    return None


def columns(readings: list[Reading], names: list[str]) -> list[str]:
    """The names that are marked columns of the table rows held (at least two rows mark each)."""
    return [n for n in names if sum(flag(r, n) is not None for r in readings) >= 2]


def marked(readings: list[Reading], names: list[str]) -> list[Reading]:
    """The rows marked yes in every one of these columns."""
    return [r for r in readings if all(flag(r, n) for n in names)]


def row_answer(readings: list[Reading], names: list[str]) -> tuple[str, list[Reading]] | None:
    """'yes' or 'no' from the row about the question's other names, in the column it names."""
    cols = columns(readings, names)
    rest = [n for n in names if n not in cols]
    if not cols or not rest:
        return None
    for r in sorted(readings, key=lambda r: -r.score):
        if all(flag(r, c) is not None for c in cols) and all(stems(n) <= r.unit.stems for n in rest):
            return ("yes" if all(flag(r, c) for c in cols) else "no"), [r]
    return None


def distinct(rows: list[Reading]) -> list[Reading]:
    """Each row once (overlapping chunks hold some rows twice)."""
    seen: dict[str, Reading] = {}
    for r in rows:
        seen.setdefault(normalise_name(r.unit.plain), r)
    return list(seen.values())


def count(readings: list[Reading], names: list[str], asked: set[str]) -> tuple[str, list[Reading]] | None:
    """How many rows of one table are marked yes in the columns the question names, with those rows.

    'How many holidays does Rotterdam get?'. None when the question names no marked column, or when the rows are
    not what it counts (`asked`: the stems of the counted noun phrase; 'parking spaces' are no holidays).
    """
    cols = columns(readings, names)
    if not cols:
        return None
    table = max({r.unit.evidence.doc_id for r in readings if flag(r, cols[0]) is not None},
                key=lambda doc: sum(flag(r, cols[0]) is not None for r in readings if r.unit.evidence.doc_id == doc))
    held = [r for r in readings if r.unit.evidence.doc_id == table]
    if not asked & frozenset().union(*(r.unit.stems | r.unit.context_stems for r in held)):
        return None
    rows = distinct(marked(held, cols))
    return (str(len(rows)), rows) if rows else None
