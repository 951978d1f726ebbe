"""Ranges a passage states ('Above EUR 5,000', 'EUR 500 - 5,000') and whether they hold an amount the question gives.

A thresholds table answers for every amount in its bands: 'a claim of EUR 6,200' is in 'Above EUR 5,000'.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

from boundloop.reasoners.offline.vocabulary import phrases

_CODES = phrases("currency_codes")
_CURRENCY = rf"(?:{'|'.join(_CODES)}|€|\$|£)"
_AMOUNT = rf"({_CURRENCY})?\s?(\d[\d,]*(?:\.\d+)?)(?:\s?(million|thousand|m|k)\b)?"
"""An amount with its currency and scale; 'm' and 'k' are a scale only as a word ('EUR 50,000 must' is not 50m)."""
_SCALE = {"million": 1e6, "m": 1e6, "k": 1e3, "thousand": 1e3}
_BETWEEN = re.compile(rf"{_AMOUNT}\s?(?:–|-|to|and)\s?{_AMOUNT}", re.IGNORECASE)
_BOUND = re.compile(
    rf"\b(above|over|more than|exceeding|greater than|from|at least|up to|under|below|less than|at most|within)\s+"
    rf"{_AMOUNT}", re.IGNORECASE,
)
COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "above": operator.gt, "over": operator.gt, "more than": operator.gt, "exceeding": operator.gt,
    "greater than": operator.gt, "longer than": operator.gt, "beyond": operator.gt, "in excess of": operator.gt,
    "from": operator.ge, "at least": operator.ge,
    "a minimum of": operator.ge, "minimum of": operator.ge, "up to": operator.le, "at most": operator.le,
    "no more than": operator.le, "not more than": operator.le, "a maximum of": operator.le,
    "maximum of": operator.le, "max": operator.le, "max.": operator.le, "within": operator.le, "under": operator.lt,
    "below": operator.lt, "less than": operator.lt, "fewer than": operator.lt, "shorter than": operator.lt,
}
"""What a bound's words mean as a comparison of a value with the bound; each reader of bounds lists the words it
recognises in its own pattern (amounts here, counts and durations in quantities.py)."""
_GIVEN = re.compile(rf"{_CURRENCY}\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|m|k|thousand)\b)?"
                    rf"|\d[\d,]*(?:\.\d+)?\s?(?:million|thousand)?\s?(?:{'|'.join(_CODES)})\b", re.IGNORECASE)


def _number(digits: str, scale: str | None) -> float:
    return float(digits.replace(",", "")) * _SCALE.get((scale or "").lower(), 1.0)


_STRICT = {op: re.compile(rf"\b(?:{'|'.join(sorted((w for w, o in COMPARISONS.items() if o is op), key=len))})\s*$",
                          re.IGNORECASE) for op in (operator.gt, operator.lt)}
_STEP = 0.005


def just_past(before: str) -> float:
    """How far past the number that follows `before` a strict bound puts it: +0.005 above, -0.005 below, else 0.

    'More than EUR 5,000' is an amount just above 5,000 (the band 'Over EUR 5,000' holds it, '1,000-5,000' does
    not); 'over 60 hours' is just past 60; 'under 3 months' just short of 3.
    """
    return _STEP if _STRICT[operator.gt].search(before) else -_STEP if _STRICT[operator.lt].search(before) else 0.0


def amounts(text: str) -> list[tuple[str, float, str]]:
    """The amounts of money a text gives: (as written, value, currency or '').

    An amount given as a strict bound ('more than EUR 5,000', 'under GBP 200') stands for one just past it.
    """
    found = []
    for match in _GIVEN.finditer(text):
        written = match.group(0)
        currency = next((c for c in (*_CODES, "€", "$", "£") if c.lower() in written.lower()), "")
        digits = re.search(r"\d[\d,]*(?:\.\d+)?", written)
        scale = re.search(r"million|thousand|(?<![a-z])[mk]\b", written, re.IGNORECASE)  # '€120k' too
        if digits:
            value = _number(digits.group(0), scale.group(0) if scale else None)
            before = text[max(0, match.start() - 20):match.start()]
            value += just_past(before)
            found.append((written, value, currency))
    return found


def _same_currency(a: str, b: str) -> bool:
    return not a or not b or a == b or {a, b} <= {"EUR", "€"} or {a, b} <= {"USD", "$"} or {a, b} <= {"GBP", "£"}


Test = tuple[tuple[Callable[[float, float], bool], float], ...]
"""A range as the comparisons a value must pass: ((operator.ge, 2000), (operator.le, 10000))."""


def _ranges(text: str, currency: str, stated: bool = False) -> list[Test]:
    """The ranges and bounds a text states in the currency (or in none, when either says none).

    `stated`: only ranges that state their currency.
    """
    tests: list[Test] = []
    for match in _BETWEEN.finditer(text):
        low_currency, low, low_scale, high_currency, high, high_scale = match.groups()
        if stated and not (low_currency or high_currency):
            continue
        if _same_currency(low_currency or high_currency or "", currency):
            tests.append(((operator.ge, _number(low, low_scale)), (operator.le, _number(high, high_scale))))
    for match in _BOUND.finditer(text):
        word, unit, digits, scale = match.groups()
        if _same_currency(unit or "", currency) and (unit or not stated):
            tests.append(((COMPARISONS[word.lower()], _number(digits, scale)),))
    return tests


def _passes(value: float, test: Test) -> bool:
    return all(compare(value, bound) for compare, bound in test)


def holds(text: str, value: float, currency: str) -> bool:
    """Whether a range the text states holds the value (in the same currency, when both say one)."""
    return any(_passes(value, test) for test in _ranges(text, currency))


def excludes(text: str, question: str) -> bool:
    """Whether the text's ranges are about other amounts than the question's ('Above EUR 500,000' for EUR 15,000).

    Only ranges stated in the question's currency count: the text must state one, and none may hold its amount.
    """
    found = False
    for _, value, currency in amounts(question):
        if not currency:
            continue
        tests = _ranges(text, currency, stated=True)
        if any(_passes(value, test) for test in tests):
            return False
        found = found or bool(tests)
    return found


def held_values(text: str, question: str) -> list[str]:
    """The amounts the question gives that a range in the text holds, as the question writes them."""
    return [written for written, value, currency in amounts(question) if holds(text, value, currency)]


_OTHERWISE = re.compile(r"\b(all other|any other|every other|otherwise|all remaining|anything else|the rest|rest of|"
                        r"anywhere else|everywhere else|elsewhere|other (?:locations|cities|sites|offices|places|"
                        r"countries|regions|areas))\b", re.I)


def otherwise(text: str) -> bool:
    """Whether the text is about every case the texts beside it leave out ('anywhere else in the UK: £95')."""
    return bool(_OTHERWISE.search(text))


def catch_all(text: str) -> bool:
    """Whether the text states the case its neighbours' ranges leave out ('All other purchase orders are ...').

    Such a sentence holds an amount that none of the ranges beside it hold.
    """
    return otherwise(text) and not _BOUND.search(text) and not _BETWEEN.search(text)


_CAP = re.compile(r"\b(?:maximum|max\.?|limits?|caps?|capped|ceiling|(?:not|never) (?:to )?exceed|the most)\b",
                  re.IGNORECASE)


def within_cap(question: str, text: str) -> bool | None:
    """Whether each amount the question gives is within the one cap the text sets in its currency.

    'The maximum the Trust will pay for a hotel is: London: £150 per night' holds £140 and not £160. None when the
    text names no cap, or gives no single amount in the question's currency ('up to' alone is an approval band's
    word as often as a cap's, so it does not count).
    """
    found = cap(question, text)
    return found[0] if found else None


def cap(question: str, text: str) -> tuple[bool, str] | None:
    """As `within_cap`, with the cap as the text writes it: (False, '€165') for €180; the first cap that fails."""
    if not _CAP.search(text):
        return None
    verdicts: list[tuple[bool, str]] = []
    for _, value, currency in amounts(question):
        capped = {(v, written) for written, v, c in amounts(text) if c and _same_currency(c, currency)}
        if currency and len({v for v, _ in capped}) == 1:
            limit, written = min(capped)
            verdicts.append((value <= limit, written))
    if not verdicts:
        return None
    return next((v for v in verdicts if not v[0]), verdicts[0])
