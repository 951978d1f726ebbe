"""A figure labelled by a compared thing's name: 'did Bergen or Rotterdam have the higher crane rate in Q3?'.

Slides, dashboards and tables list one figure per thing ('Rotterdam 29.1', 'Bergen 24.8' under 'Productivity (GCR,
moves per crane-hour)'; 'Site: Bergen; Incidents: 4'). Each option's figure is the one its name labels, in the row or
short item whose words, heading and title say most of the rest of the question; the first number of a unit that only
mentions the option ('Rotterdam 251,300 TEU · Gdynia 109,800 TEU · Bergen 51,500 TEU') is another thing's figure.
"""

from __future__ import annotations

import re

from boundloop.domain.text import stems
from boundloop.reasoners.offline.reading import Reading, coverage

SHORT_ITEM = 8
"""A unit of at most this many words is a label and its figure, not a sentence."""
_FIGURE = r"(\d[\d,]*(?:\.\d+)?)"
_YEAR = re.compile(r"(?:19|20)\d\d")


def _beside(option: str, text: str) -> float | None:
    """The number right after the option's name in a short item ('Rotterdam 29.1', 'Bergen: 24.8')."""
    found = re.search(rf"(?<!\w){re.escape(option)}\s*[:=–-]?\s*{_FIGURE}(?![\d,.]*\s*(?:[–-]|to)\s*\d)", text,
                      re.IGNORECASE)
    return float(found.group(1).replace(",", "")) if found else None


def _in_cells(option: str, reading: Reading, rest: dict[str, float]) -> float | None:
    """The number in the cell whose header says most of the rest, in a row a cell of which is the option."""
    own = stems(option)
    cells = reading.unit.cells
    if not own or not any(stems(c.value) == own for c in cells):
        return None
    figures = [(coverage_of(c.header, rest), c.value) for c in cells
               if c.header and re.fullmatch(rf"\s*{_FIGURE}\s*", c.value)]
    if not figures:
        return None
    score, value = max(figures)
    return float(value.replace(",", "")) if score > 0 else None


def _of_field(option: str, reading: Reading, rest: dict[str, float]) -> float | None:
    """In a unit about the option, the number its field names: 'Design capacity: 85 Ml/d', '(design capacity 40 Ml/d)'.

    The field is the heaviest word of the rest of the question the unit states, the number the first within three
    words after it.
    """
    if not stems(option) <= reading.unit.stems | reading.unit.context_stems:
        return None
    words = reading.unit.plain.split()
    best: tuple[float, float] | None = None
    for i, word in enumerate(words):
        weight = sum(rest.get(k, 0.0) for k in stems(word))
        if weight <= 0:
            continue
        for after in words[i + 1:i + 4]:
            if (found := re.fullmatch(rf"[(:]?{_FIGURE}[),;:.]?", after)) and not _YEAR.fullmatch(found.group(1)):
                if best is None or weight > best[0]:
                    best = weight, float(found.group(1).replace(",", ""))
                break
    return best[1] if best else None


def coverage_of(text: str, weights: dict[str, float]) -> float:
    """The weight of the words of `weights` that `text` states."""
    said = stems(text)
    return sum(w for k, w in weights.items() if k in said)


def labelled_figure(option: str, readings: list[Reading], rest: dict[str, float]) -> tuple[float, Reading] | None:
    """The figure the option's name labels in the unit that best says the rest of the question, with that unit."""
    found: list[tuple[float, float, Reading]] = []
    for reading in readings:
        unit = reading.unit
        value = _in_cells(option, reading, rest) if unit.cells else \
            _beside(option, unit.plain) if len(unit.plain.split()) <= SHORT_ITEM else None
        if value is None:
            value = _of_field(option, reading, rest)
        if value is not None:
            found.append((coverage([unit], rest) if rest else reading.coverage, value, reading))
    if not found:
        return None
    best = max(found, key=lambda item: item[0])
    doc = best[2].unit.evidence.doc_id
    if len({item[2].unit.plain for item in found if item[2].unit.evidence.doc_id == doc and item[0] == best[0]}) > 1:
        return None  # rows per berth of one terminal, alike: its figure is theirs together, not one row's
    return best[1], best[2]
