"""Counts and durations a question gives against the limits a passage sets ('7 days' against 'up to 5 days').

A yes/no question about a quantity ('Can I carry over 7 unused holiday days?', 'Is first class OK for a five-hour
journey?') is answered by the limit on the same unit: 'up to 5 days' says no, 'longer than 4 hours' says yes.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

from boundloop.domain.text import stem
from boundloop.domain.verdicts import Bound
from boundloop.reasoners.offline.ranges import COMPARISONS, amounts, just_past
from boundloop.reasoners.offline.vocabulary import phrases, words

_WORDS = {w: n for n, w in enumerate(phrases("number_words"))}
_NUMBER = r"(\d+(?:\.\d+)?|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
_GIVEN = re.compile(rf"\b{_NUMBER}(?:\s|-)((?:[a-z]+\s){{0,2}}[a-z]+)", re.IGNORECASE)
_LIMIT = re.compile(
    rf"\b(up to|at most|no more than|not more than|a maximum of|maximum of|max\.?|longer than|more than|over|"
    rf"above|exceeding|at least|a minimum of|minimum of|less than|fewer than|under|below|shorter than|within)\s+"
    rf"{_NUMBER}(?:\s|-)([a-z]+)", re.IGNORECASE)
_BOUNDS: dict[Callable[[float, float], bool], Bound] = {
    operator.le: "limit", operator.lt: "limit", operator.ge: "minimum", operator.gt: "threshold"}
"""The kind of bound a comparison is: 'up to', 'less than' limit; 'at least' is a minimum; 'longer than' a threshold."""
_UNITS = frozenset(stem(u) for u in words("count_units"))


def _value(written: str) -> float:
    return float(_WORDS.get(written.lower(), written) if written.lower() in _WORDS else written)


def _unit(word: str) -> str:
    key = stem(word.lower())
    return "person" if key in {"peopl", "person"} else key


Quantity = tuple[str, float, str]
"""A count or duration as written, its value and its unit: ('7', 7.0, 'day')."""




def quantities(question: str, bounds: bool = False) -> list[Quantity]:
    """The quantities the question gives: '7 unused holiday days' -> ('7', 7, 'day').

    With `bounds`, one given as a strict bound ('if I go over 60 hours', 'under 3 months') stands for one just past
    it, as a band reads it; a limit check keeps the number ('Can I carry over 7 days?' asks about 7).
    """
    found = []
    for match in _GIVEN.finditer(question):
        before = question[max(0, match.start() - 20):match.start()]
        step = just_past(before) if bounds else 0.0
        for word in match.group(2).split():  # the unit may follow a word or two ('7 unused holiday days')
            if _unit(word) in _UNITS:
                found.append((match.group(1).lower(), _value(match.group(1)) + step, _unit(word)))
                break
    return found


def unstated(weights: dict[str, float], question: str) -> dict[str, float]:
    """The question's word weights without the numbers of the quantities and amounts it gives ('7', 'eight', '140').

    A limit on their unit ('up to 5 days', 'a maximum of £150') stands for them, so a passage need not state them.
    """
    numbers = {stem(written) for written, _, _ in quantities(question)}
    numbers |= {digits for written, _, _ in amounts(question) for digits in re.findall(r"\d+", written)}
    return {k: w for k, w in weights.items() if k not in numbers}


def fits(question: str, text: str) -> bool | None:
    """Whether every quantity the question gives is within the text's limits on the same unit.

    None when the text sets no limit on a unit the question gives.
    """
    found = limit_on(question, text)
    return found[0] if found else None


def limit_on(question: str, text: str) -> tuple[bool, str, Bound] | None:
    """As `fits`, with the deciding limit as written and its kind: (False, '5 days', 'limit').

    The first limit the question's quantity fails decides; else the first it meets.
    """
    limits = [(COMPARISONS[m.group(1).lower()], _value(m.group(2)), _unit(m.group(3)), f"{m.group(2)} {m.group(3)}")
              for m in _LIMIT.finditer(text)]
    verdicts = [(compare(value, bound), written, _BOUNDS[compare]) for _, value, unit in quantities(question)
                for compare, bound, limited, written in limits if limited == unit]
    if not verdicts:
        return None
    return next((v for v in verdicts if not v[0]), verdicts[0])


_STRICT = 1e-9
_Q = rf"{_NUMBER}\s*(?:([a-z]+)\s*)?"
_BANDS = [
    (re.compile(rf"\b{_Q}(?:up to|to|and|-|–)\s*(?:less than\s*)?{_NUMBER}\s*([a-z]+)", re.I), "between"),
    (re.compile(rf"\b(?:less than|under|fewer than|below|shorter than)\s+{_NUMBER}\s*([a-z]+)", re.I), "below"),
    (re.compile(rf"\b(?:more than|over|above|longer than)\s+{_NUMBER}\s*([a-z]+)", re.I), "above"),
    (re.compile(rf"\b(?:at least|a minimum of)\s+{_NUMBER}\s*([a-z]+)|\b{_NUMBER}\s*([a-z]+)\s+or more\b", re.I),
     "from"),
]


def _bands(text: str) -> list[tuple[str, float, float]]:
    """The bands of counts or durations a text states: (unit, low, high)."""
    found = []
    for pattern, side in _BANDS:
        for match in pattern.finditer(text):
            groups = list(match.groups())
            if side == "between":
                low, low_unit, high, unit = groups
                if low_unit and _unit(low_unit) != _unit(unit):
                    continue
                found.append((_unit(unit), _value(low), _value(high)))
            elif side == "below":
                found.append((_unit(groups[1]), float("-inf"), _value(groups[0]) - _STRICT))
            else:
                number, unit = [g for g in groups if g][:2]
                found.append((_unit(unit), _value(number) + (_STRICT if side == "above" else 0.0), float("inf")))
    return [(unit, low, high) for unit, low, high in found if unit in _UNITS]


def banded(text: str, given: list[Quantity]) -> tuple[list[str], bool]:
    """The question's quantities that a band of the text holds, and whether the text's bands leave them all out.

    'I've been here three years': '2 years up to 5 years: 2 months' holds it; 'More than 5 years' leaves it out.
    """
    bands = _bands(text)
    held = [written for written, value, unit in given
            if any(u == unit and low <= value <= high for u, low, high in bands)]
    about = any(u == unit for _, _, unit in given for u, _, _ in bands)
    return held, about and not held
