"""The limit that decides a yes/no question about a figure the question gives.

'Can I book a hotel in Rotterdam at €180 a night?' against 'City: Rotterdam; Limit: €165'; 'is 8 km/h ok inside
the restraint area?' against 'Area: Inside the ERA; Limit: 5 km/h'; 'Can I carry over 7 days?' against 'up to 5
days'. The verdict is whether the question's figure is within the bound, and the answer says the bound, so the asker
sees why ('No: the limit for Rotterdam is €165').
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from boundloop.domain.text import stem, stems
from boundloop.domain.verdicts import Bound, Decided
from boundloop.reasoners.offline.clock import minutes
from boundloop.reasoners.offline.in_force import standing
from boundloop.reasoners.offline.quantities import limit_on
from boundloop.reasoners.offline.ranges import cap
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.spans import spans
from boundloop.reasoners.offline.units import Cell, Unit

_UPPER_HEADER = re.compile(r"\b(?:limit|maximum|max\.?|cap|ceiling|speed limit|not to exceed)\b", re.IGNORECASE)
_LOWER_HEADER = re.compile(r"\b(?:minimum|min\.?)\b", re.IGNORECASE)
"""A cell's header naming the kind of bound its value is ('Limit: 5 km/h', 'Minimum: 3 quotes')."""
_MEASURE = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?([A-Za-z°µ%][\w°/²%]*)")
"""A number and the unit it is written in: '5 km/h', '12 hours', '85 dB'."""
SUBJECT_WORDS = 4
"""A row's label names what the limit is for ('Rotterdam') when it is this short and the question names it."""


@dataclass(frozen=True)
class Limit:
    """Whether the question's figure is within the bound, and the bound as written."""

    within: bool
    value: str
    bound: Bound
    subject: str = ""

    def answer(self) -> str:
        """The verdict with its bound: 'No: the limit for Rotterdam is €165'."""
        return str(Decided("yes" if self.within else "no", self.bound, self.value, self.subject))


def _measures(text: str) -> list[tuple[float, str]]:
    return [(float(number), stem(unit.lower())) for number, unit in _MEASURE.findall(text)]


def _cell_limit(question: str, cell: Cell) -> tuple[bool, str, Bound] | None:
    """A cell under a bound's header in the unit of a figure the question gives ('Limit: 5 km/h' for 8 km/h)."""
    upper, lower = _UPPER_HEADER.search(cell.header), _LOWER_HEADER.search(cell.header)
    if bool(upper) == bool(lower):
        return None
    stated = _measures(cell.value)
    if len(stated) != 1:  # 'Limit: 2 per 12 hours' is no single bound
        return None
    bound, unit = stated[0]
    given = [value for value, asked in _measures(question) if asked == unit]
    if not given:
        return None
    within = all(value <= bound for value in given) if upper else all(value >= bound for value in given)
    written = _MEASURE.search(cell.value)
    return within, written.group(0) if written else cell.value, "limit" if upper else "minimum"


_TIME_BOUND = re.compile(r"\b(before|by|until|till|no later than|earlier than|after|later than|from)\s+", re.I)
_EARLIER = {"before": lambda q, t: q < t, "by": lambda q, t: q <= t, "until": lambda q, t: q <= t,
            "till": lambda q, t: q <= t, "no later than": lambda q, t: q <= t, "earlier than": lambda q, t: q < t,
            "after": lambda q, t: q > t, "later than": lambda q, t: q > t, "from": lambda q, t: q >= t}
"""Whether a time the question gives (minutes after midnight) meets a bound on the time of day."""
_FORMER = re.compile(r"\b(?:previously|formerly|was|were|used to be|old)\W*$", re.I)


def _time_limit(question: str, text: str) -> tuple[bool, str, Bound] | None:
    """A bound on the time of day the question gives one of ('starting before 05:30' for a shift at 05:15).

    The bound a sentence gives as its old one ('(previously: before 05:00)') decides nothing.
    """
    given = [m for span in spans("time", question) for m in minutes(span)]
    if len(given) != 1:
        return None
    for bound in _TIME_BOUND.finditer(text):
        written = spans("time", text[bound.end():bound.end() + 20])
        if not written or not text[bound.end():].startswith(written[0]) or _FORMER.search(text[:bound.start()]):
            continue
        at = minutes(written[0])
        if len(at) == 1:
            word = bound.group(1).lower()
            return _EARLIER[word](given[0], at[0]), written[0], "minimum" if word in ("after", "later than",
                                                                                     "from") else "limit"
    return None


def _subject(unit: Unit, value: str, question: str) -> str:
    """The row's label when the question names it: 'Rotterdam' of 'City: Rotterdam; Limit: €165'."""
    asked = stems(question)
    for cell in unit.cells:
        if value in cell.value:
            continue
        said = stems(cell.value)
        if said and said <= asked and len(cell.value.split()) <= SUBJECT_WORDS:
            return cell.value.strip()
    return ""


def deciding_limit(question: str, unit: Unit) -> Limit | None:
    """The bound in the unit that decides whether the question's figure is allowed, or None when none does."""
    found: tuple[bool, str, Bound] | None = None
    if counted := limit_on(question, unit.plain):  # 'up to 5 days' for 7 days
        found = counted
    elif capped := cap(question, f"{unit.lead} {unit.plain}"):  # 'Limit: €165' for €180
        found = capped[0], capped[1], "limit"
    else:
        found = next((limited for cell in unit.cells if (limited := _cell_limit(question, cell))), None) or \
            _time_limit(question, unit.plain)
    if found is None:
        return None
    within, value, bound = found
    return Limit(within, value, bound, _subject(unit, value, question))


LIMIT_MARGIN = 0.15
"""A unit stating a limit on the question's figure reads a yes/no question when it covers nearly as much of it as
the best unit (within this share): the limit, not the words, answers ('before 05:30' for a shift at 05:15)."""


def limiting(question: str, found: list[Reading], best: Reading, said: Callable[[Reading], float]) -> Reading:
    """The unit among `found` that decides the question by a limit, the one in force first; else `best`.

    A later decision ('From 1 July 2024 the allowance is paid for any shift starting before 05:30') is in force over
    the table it changes ('Shift starting before 05:00'): no draft or proposal first, then the later date.
    """
    floor = said(best) - LIMIT_MARGIN
    limited = [r for r in found if said(r) >= floor and deciding_limit(question, r.unit) is not None]
    if not limited:
        return best
    return max(limited, key=lambda r: (standing(r.unit).approved, standing(r.unit).effective or "", said(r)))
