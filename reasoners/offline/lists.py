"""Lists: questions answered by several rows or items ('Which rooms seat 12 or more?', 'holidays both offices observe').

The items come from the rows and list items of the documents the question is about (their titles and headings say
it), filtered by what the question constrains: a number ('12 or more', 'at least 5'), a month ('in June'), and, for
'both X and Y', the items every side's document lists. Each item is named by the cell whose header names what is
asked ('Holiday: Good Friday'), else its label or first name.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

from boundloop.domain.names import normalise_name
from boundloop.domain.text import entities, stem, stems
from boundloop.reasoners.offline.answer_types import Expected
from boundloop.reasoners.offline.compare import about
from boundloop.reasoners.offline.flags import columns, distinct, marked
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.spans import finditer, spans
from boundloop.reasoners.offline.units import chunk_ordinal
from boundloop.reasoners.offline.vocabulary import phrases

MAX_ITEMS = 12
SOURCE_SHARE = 0.6
"""A document is a source of the list when its items cover this share of what the best source's cover."""
_MONTHS = phrases("months")
_BOUNDS: list[tuple[re.Pattern[str], Callable[[float, float], bool]]] = [
    (re.compile(r"(\d[\d,.]*)\s*(?:or more|or greater|or above|or over|\+|and (?:up|above|over))"), operator.ge),
    (re.compile(r"(?:at least|minimum of|no fewer than|no less than)\s*(\d[\d,.]*)"), operator.ge),
    (re.compile(r"(?:more than|over|above|greater than|exceeding)\s*(\d[\d,.]*)"), operator.gt),
    (re.compile(r"(\d[\d,.]*)\s*or (?:less|fewer|below|under)"), operator.le),
    (re.compile(r"(?:at most|up to|no more than|maximum of)\s*(\d[\d,.]*)"), operator.le),
    (re.compile(r"(?:less than|fewer than|under|below)\s*(\d[\d,.]*)"), operator.lt),
]
_NUMBER = re.compile(r"(?<![\w.-])\d[\d,]*(?:\.\d+)?(?![\w-]|\.\d)")


def bounded(question: str) -> tuple[Callable[[float, float], bool], float] | None:
    """The bound a question puts on a number ('seat 12 or more' -> (>=, 12)), or None."""
    for pattern, compare in _BOUNDS:
        match = pattern.search(question.lower())
        if match:
            return compare, float(match.group(1).replace(",", ""))
    return None


_MEASURE = re.compile(r"\b(capacity|seats?|seated|people|persons|size|count|total|max(?:imum)?|min(?:imum)?|"
                      r"limit|amount|price|cost)\b", re.I)


def _meets(reading: Reading, bound: tuple[Callable[[float, float], bool], float], question: str) -> bool:
    """Whether the number the unit states for what the question bounds meets the bound."""
    found = _measured(reading, question)
    compare, limit = bound
    return found is not None and compare(found[1], limit)


def _measured(reading: Reading, question: str) -> tuple[int, float] | None:
    """The number the unit states for what the question measures, with how surely (0 surest).

    That is the number next to a measure word ('capacity 16' for 'seat 12 or more'), else one next to a question
    word, else the first that is not part of a date. A sum of money answers only a question about money.
    """
    text = reading.unit.plain
    asked = stems(question)
    money = [range(s, e) for s, e in finditer("amount", text)] if not spans("amount", question) else []
    found: dict[int, float] = {}  # 0: by a measure word, 1: by a question word, 2: any other
    for match in _NUMBER.finditer(text):
        # within its own cell of a row ('Floor: Level 3; Capacity: 20': the 3 is a floor's, not the capacity's)
        cell_start = text.rfind(";", 0, match.start()) + 1
        cell_end = text.find(";", match.end()) % (len(text) + 1)
        around = text[max(cell_start, match.start() - 30):match.start()] + " " + \
            text[match.end():min(cell_end, match.end() + 15)]
        words = re.findall(r"[A-Za-z]+", around)
        dated = re.search(r"\b(" + "|".join(_MONTHS) + r"|Q[1-4])\b", around, re.I)
        if dated or ":" in text[match.end():match.end() + 1] or any(match.start() in r for r in money):
            continue
        value = float(match.group(0).replace(",", ""))
        rank = 0 if _MEASURE.search(around) else 1 if stems(" ".join(words[-3:])) & asked else 2
        found.setdefault(rank, value)
    if not found:
        return None
    return min(found), found[min(found)]


_SUPERLATIVE = re.compile(r"\b(?:(biggest|largest|most expensive|highest|longest)|"
                          r"(smallest|cheapest|least expensive|lowest|shortest))\b", re.I)


def superlative_item(question: str, expected: Expected, readings: list[Reading]
                     ) -> tuple[list[Reading], str] | None:
    """The row that is biggest (or smallest...) by its measure among the rows the question is about, and its name.

    'What's the biggest meeting room at Northgate?': of the rooms under Northgate, the one seating most. Only rows
    whose measure stands by a measure word ('Seats: 40') or a word of the question are compared.
    """
    match = _SUPERLATIVE.search(question)
    if not match:
        return None
    sources = _sources(readings, expected, stems(question))
    items = _of_named(question, [r for r in readings if r.unit.evidence.doc_id in sources and r.unit.cells
                                 and item_name(r, expected)])
    valued = [(measure[1], r) for r in items if (measure := _measured(r, question)) and measure[0] <= 1]
    if len(valued) < 2:
        return None
    pick = max if match.group(1) else min
    best = pick(valued, key=lambda pair: pair[0])
    if sum(value == best[0] for value, _ in valued) > 1:
        return None  # a tie names no one row
    return [best[1]], item_name(best[1], expected)


def named(reading: Reading, expected: Expected) -> tuple[int, str]:
    """What an item is called, and how surely.

    3: the cell whose header names the asked-for thing; 2: the row's label; 1: the words before a dash or colon;
    0: its first name; -1: nothing.
    """
    head = stem(expected.head) if expected.head else ""
    cells = reading.unit.cells
    for cell in cells:
        if cell.header and head and head in stems(cell.header):
            return 3, cell.value
    label = next((c.value for c in cells if not c.header), "")
    if label:
        return 2, label
    text = reading.unit.plain
    lead, *rest = re.split(r"\s+[-–—]\s+|:\s", text, maxsplit=1)
    if rest and len(lead.split()) <= 6:
        # '1 January: New Year's Day' is named by what follows its date
        dated = any(s == 0 and e >= len(lead.strip()) for s, e in finditer("date", lead.strip()))
        return 1, (rest[0] if dated and rest[0].strip() else lead).strip(" .")
    names = [text[s:e] for s, e in finditer("name", text)]
    return (0, names[0]) if names else (-1, "")


def item_name(reading: Reading, expected: Expected) -> str:
    return named(reading, expected)[1]


def _is_item(reading: Reading) -> bool:
    unit = reading.unit
    return bool(unit.cells) or bool(unit.lead) or len(unit.plain.split()) <= 14

def _sources(readings: list[Reading], expected: Expected, asked: set[str]) -> set[str]:
    """The documents the question is about.

    They name the listed thing ('holidays'), and their best unit covers nearly as much as the best one's.
    """
    head = stem(expected.head) if expected.head else ""
    by_doc: dict[str, float] = {}
    for r in readings:
        if head and head not in r.unit.stems | r.unit.context_stems | r.unit.chunk_stems:
            continue
        # what the document is called says most about whether it holds the list
        titled = len(stems(r.unit.evidence.title) & asked) / max(len(asked), 1)
        by_doc[r.unit.evidence.doc_id] = max(by_doc.get(r.unit.evidence.doc_id, 0.0), r.coverage + titled)
    best = max(by_doc.values(), default=0.0)
    return {doc for doc, score in by_doc.items() if score >= SOURCE_SHARE * best}


def _sources_of(sides: list[str], readings: list[Reading], expected: Expected, asked: set[str]) -> set[str]:
    if not sides:
        return _sources(readings, expected, asked)
    return set().union(*(_sources(about(side, readings, headed=True), expected, asked) for side in sides))


def both_sides(question: str) -> list[str]:
    """The names joined by 'both X and Y' ('both the Lisbon and the Toronto offices' -> Lisbon, Toronto)."""
    match = re.search(r"\bboth\s+(?:the\s+)?(.+?)\s+and\s+(?:the\s+)?(\S+(?:\s+[A-Z]\S*)*)", question)
    if not match:
        return []
    return [side.strip(" ?,.") for side in match.groups()]


def list_items(question: str, expected: Expected, readings: list[Reading]
               ) -> tuple[list[Reading], list[str]] | None:
    """The item units that answer a list question, and their names; None when no list is found."""
    sides = both_sides(question)
    sources = _sources_of(sides, readings, expected, stems(question))
    items = [r for r in readings if r.unit.evidence.doc_id in sources and _is_item(r) and item_name(r, expected)]
    months = [m for m in _MONTHS if re.search(rf"\b{m}\b", question.lower())]
    if months:
        items = [r for r in items if any(m in r.unit.plain.lower() for m in months)]
    bound = bounded(question)
    if bound:
        items = [r for r in items if _meets(r, bound, question)]
    if len(sides) < 2:  # 'Which Leeds meeting rooms ...': the rows under Leeds, when the rows say where they are
        items = _of_named(question, items)
    if not items:
        return None
    surest = max(named(r, expected)[0] for r in items)
    items = [r for r in items if named(r, expected)[0] == surest]
    items.sort(key=lambda r: (r.unit.evidence.doc_id, r.unit.evidence.chunk_id, r.unit.position))
    if len(sides) >= 2:
        if columns(items, sides) == sides:  # a table marking each row per side: the rows marked in both
            return _named(distinct(marked(items, sides)), expected)
        return _common(sides, items, expected)
    return _named(items, expected)


def _of_named(question: str, items: list[Reading]) -> list[Reading]:
    """The items whose unit, heading or title states every name the question gives, when any does."""
    names = entities(question, names_only=True)
    if marks := columns(items, names):  # 'Which holidays are days off in Leeds?': the rows marked in its column
        return marked(items, marks)
    named = [words for e in names if (words := {k for k in stems(e) if k.isalpha()})]
    said = [r for r in items if all(words & (r.unit.stems | r.unit.context_stems) for words in named)]
    return said if named and said else items


def unfinished(question: str, expected: Expected, readings: list[Reading]) -> list[str]:
    """Titles of the list's source documents whose last held chunk ends inside the list (the next is not held)."""
    sides = both_sides(question)
    sources = _sources_of(sides, readings, expected, stems(question))
    held: dict[str, set[int]] = {}
    for r in readings:
        ordinal = chunk_ordinal(r.unit.evidence.chunk_id)
        if r.unit.evidence.doc_id in sources and ordinal is not None:
            held.setdefault(r.unit.evidence.doc_id, set()).add(ordinal)
    titles = []
    for doc, ordinals in held.items():
        last = [r for r in readings if r.unit.evidence.chunk_id == f"{doc}#{max(ordinals)}"]
        ends_in_list = bool(last) and _is_item(max(last, key=lambda r: r.unit.position))
        if ends_in_list or set(range(max(ordinals) + 1)) - ordinals:
            titles.append(last[0].unit.evidence.title if last else doc)
    return titles


def _named(chosen: list[Reading], expected: Expected) -> tuple[list[Reading], list[str]] | None:
    names: dict[str, Reading] = {}
    for r in chosen:
        names.setdefault(normalise_name(item_name(r, expected)), r)
    if not names:
        return None
    picked = list(names.values())[:MAX_ITEMS]
    return picked, [item_name(r, expected) for r in picked]


def _common(sides: list[str], items: list[Reading], expected: Expected) -> tuple[list[Reading], list[str]] | None:
    """Items every side's document lists (by name, ignoring what a parenthesis adds)."""
    def key(r: Reading) -> str:
        return normalise_name(re.sub(r"\s*\(.*?\)", "", item_name(r, expected)))

    per_side = [{key(r): r for r in about(side, items, headed=True)} for side in sides]
    shared = [k for k in per_side[0] if k and all(k in other for other in per_side[1:])]
    if not shared:
        return None
    picked = [side[k] for k in shared[:MAX_ITEMS] for side in per_side]
    return picked, [min((item_name(side[k], expected) for side in per_side), key=len) for k in shared[:MAX_ITEMS]]
