"""Measures and rates: the units a value must be given in to answer the question, and the rate it is given at.

'How wide is the Moselle?' is answered by a length ('400 m'), not by a discharge ('300 m3/s') or a bare '8'; 'the
night allowance per hour' by a value per hour ('EUR 2.40 per hour'), not by one per day ('Daily meal allowance:
EUR 50').
"""

from __future__ import annotations

import re
from functools import lru_cache

from boundloop.reasoners.offline.answer_types import head_phrase, unabbreviated
from boundloop.reasoners.offline.clauses import interrogative
from boundloop.reasoners.offline.deadlines import DUE_SPEED
from boundloop.reasoners.offline.units import Cell

_LENGTH = (r"km|kilometres?|kilometers?|miles?|mi|metres?|meters?|m|ft|feet|foot|inch(?:es)?|cm|mm|yards?|yd|"
           r"nautical miles?|nmi|light[- ]years?|characters?|digits?|letters?|words?|pages?|lines?|slides?")
_DURATION = r"seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|nights?|weeks?|months?|years?|decades?|centuries"
_TEMPERATURE = r"°\s?[CF]|º\s?C|degrees?(?:\s(?:C|F|Celsius|Fahrenheit|centigrade))?"
_WEIGHT = r"kg|kilograms?|g|grams?|tonnes?|tons?|t|lbs?|pounds|ounces?|oz"
_SPEED = r"km/h|kph|mph|knots?|kn|m/s|(?:metres|meters|miles|kilometres|kilometers) (?:per|an|a) (?:second|hour)"
_MEASURES: tuple[tuple[re.Pattern[str], str], ...] = (
    (DUE_SPEED, _DURATION),  # 'how fast do we have to acknowledge it': within a time, not at a speed
    (re.compile(r"\bhow far (?:in advance|ahead|back|out)\b", re.I), _DURATION),  # 'how far ahead can I book'
    (re.compile(r"\bhow (?:wide|tall|deep|far)\b", re.I), _LENGTH),
    (re.compile(r"\bhow long\b", re.I), f"{_LENGTH}|{_DURATION}"),
    (re.compile(r"\bhow (?:often|frequently)\b", re.I), _DURATION),  # 'every 90 minutes'; a section's '3.1' is none
    (re.compile(r"\bhow (?:hot|cold|warm)\b", re.I), _TEMPERATURE),
    (re.compile(r"\bhow heavy\b", re.I), _WEIGHT),
    (re.compile(r"\bhow fast\b", re.I), _SPEED),
)
"""Questions asking a measure, and the units its value is given in ('how wide is the river': '400 m', not
'300 m3/s'; 'how long' asks a length, of a password too, or a duration)."""
_HOW_MANY_UNITS = re.compile(r"\bhow many\s+(?:(?:working|business|calendar|full|school)\s+)?(seconds|minutes|hours|"
                             r"days|nights|weeks|months|years)\b", re.I)
"""'How many weeks of parental leave': weeks, not '41 hours per week'; 'how many days' is not '30 minutes'."""
_COUNTED_UNITS = {"hours": r"hours?|hrs?|h", "minutes": r"minutes?|mins?", "seconds": r"seconds?|secs?"}
_NAMED_MEASURES: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"length", "duration"}), f"{_LENGTH}|{_DURATION}"),
    (frozenset({"temperature", "temp"}), _TEMPERATURE),
    (frozenset({"distance", "height", "width", "depth"}), _LENGTH),
    (frozenset({"notice"}), _DURATION),
    (frozenset({"speed", "velocity"}), _SPEED),
    (frozenset({"weight", "mass"}), _WEIGHT),
)
"""Measures a question names as what it asks ('the max block length': '4 h', not '4'; 'what temp does the fluid need
to be': '60 °C', not 'Type I'; 'at what gust speed': '18 m/s', not '18'; 'how much notice': '4 h')."""
_QUANTITY = (r"(?:\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
             r"thirty|forty|fifty|hundred|a few|several|a|an)")
_QUALIFIED = (r"^(?:(?:up to|at least|at most|about|around|over|under|more than|less than|nearly|almost|some|"
              r"approximately|roughly)\s)?~?")
_QUALIFIED_UNIT = (r"(?:\s?(?:million|billion|thousand|hundred))?(?:\s(?:working|business|calendar|consecutive|full|"
                   r"clear|school|whole|more|additional|extra|further))?[\s-]?")


@lru_cache(maxsize=256)
def measure_units(question: str) -> re.Pattern[str] | None:
    """What a value must read as to answer a question asking a measure; None for other questions.

    A value of another measure does not answer it: '300 m3/s' is a discharge, not a width, and '8' alone is no
    length. Kept per question: every unit of the evidence asks it again.
    """
    asked_for = set(head_phrase(interrogative(unabbreviated(question))))
    counted = (match.group(1).lower() if (match := _HOW_MANY_UNITS.search(question)) else "")
    units = (_COUNTED_UNITS.get(counted, rf"{counted[:-1]}s?") if counted else None) or \
        next((u for asked, u in _MEASURES if asked.search(question)), None) or \
        next((u for nouns, u in _NAMED_MEASURES if nouns & asked_for), None)
    if units is None:
        return None
    return re.compile(rf"{_QUALIFIED}{_QUANTITY}(?:\s?(?:–|-|to)\s?{_QUANTITY})?{_QUALIFIED_UNIT}"
                      rf"(?:{units})(?![\w/²³])", re.I)


def in_units(measured: re.Pattern[str], text: str, start: int, span: str,
             cells: list[tuple[Cell, tuple[int, int]]]) -> str | None:
    """The value at `start` as given in the units the question's measure takes, else None.

    With the unit written after it, the value with its unit ('400 m'); under a cell header naming the unit ('Maximum
    length (hours): 8'), the value as written.
    """
    written = measured.match(text[start:start + len(span) + 30])
    if written:
        return written.group(0).strip()
    headers = [c.header for c, (s, e) in cells if s <= start < e]
    if any(measured.match(f"1 {word}") for header in headers for word in re.findall(r"[A-Za-z/]+", header)):
        return span
    return None


_CAPITAL_UNIT = re.compile(r" ?(?-i:[A-Z]{2,5})\b(?![-'’])")
"""A unit written in capitals after a number ('150 RLU', '30 PSI'): part of the value."""
_BOUND_BEFORE = re.compile(r"\b(?:below|above|under|over|less than|more than|at least|at most|up to) $", re.I)


def in_capital_unit(text: str, start: int, end: int, span: str) -> tuple[int, str] | None:
    """The number `span` (at `start`, ending at `end`) with the unit in capitals after it and the bound before it.

    'below 150 RLU' of 'Each must read below 150 RLU'; None without such a unit.
    """
    capitals = _CAPITAL_UNIT.match(text, end)
    if capitals is None:
        return None
    span = f"{span}{capitals.group(0)}"
    if bound := _BOUND_BEFORE.search(text[:start]):
        return bound.start(), f"{bound.group(0)}{span}"
    return start, span


_RATE = re.compile(r"\b(?:per|an?|each|every)\s+(hour|day|night|week|month|year|mile|km|kilometre|kilometer|person|"
                   r"head|trip|shift)\b|\b(hourly|daily|nightly|weekly|monthly|yearly|annual|annually)\b|/\s?(hour|"
                   r"day|night|week|month|year|mile|km|person|trip|shift)\b", re.I)
_RATE_WORDS = {"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "monthly": "month",
               "yearly": "year", "annual": "year", "annually": "year", "kilometre": "km", "kilometer": "km",
               "head": "person"}
"""Rates written otherwise than 'per <unit>' ('daily', 'per kilometre', 'per head')."""


def rate_of(text: str, start: int, length: int) -> str:
    """The rate a value at `start` is given at ('EUR 2.40 per hour', 'Daily meal allowance: EUR 50'), or ''.

    The rate written in or after the value counts first, else the nearest one before it in its cell or clause.
    """
    found = _RATE.search(text[start:start + length + 15])
    if not found:
        before = re.split(r"[;.]", text[max(0, start - 40):start])[-1]
        found = next(reversed(list(_RATE.finditer(before))), None)
    if not found:
        return ""
    word = next(g for g in found.groups() if g).lower()
    return _RATE_WORDS.get(word, word)
