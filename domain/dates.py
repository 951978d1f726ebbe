"""Dates as documents write them, read into ISO 8601 strings ('2025-03-14', '2025-03', '2025').

'14 March 2025', 'March 14, 2025', '2025-03-14', '14/03/2025' (day first, as in Europe), 'Wed, 12 Mar 2025 09:14:22
+0000', 'March 2025' and '2025' are read; what none of these forms fits ('Q3 FY25', '31/31/2025') is no date, never
an error. A date keeps the precision it is written with, so '2025-03' is a month and sorts before '2025-03-14'.
"""

from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple

MONTHS = {name: number for number, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
    ("december", "dec")), start=1) for name in names}
_MONTH = r"(?P<{}>" + "|".join(form for name in sorted(MONTHS, key=len, reverse=True)
                               for form in (name.title(), name.upper())) + r")\.?"
"""A month is written with its capital: 'Band 2 may claim' holds no 2 May."""
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th|ST|ND|RD|TH)?"
_YEAR = r"(?P<{}>(?:19|20)\d\d)"
_FORMS = [re.compile(p) for p in (
    r"\b" + _YEAR.format("y") + r"-(?P<m>[01]\d)-(?P<d>[0-3]\d)\b",  # 2025-03-14
    r"\b" + _DAY.format("d") + r"(?:\s+of)?\s+" + _MONTH.format("mn") + r",?\s+" + _YEAR.format("y") + r"\b",
    r"\b" + _MONTH.format("mn") + r"\s+" + _DAY.format("d") + r",?\s+" + _YEAR.format("y") + r"\b",
    r"\b(?P<d>[0-3]?\d)[/.](?P<m>[01]?\d)[/.](?P<y>(?:19|20)\d\d)\b",  # 14/03/2025, 14.03.2025: day first
    r"\b" + _MONTH.format("mn") + r",?\s+" + _YEAR.format("y") + r"\b",  # March 2025
    r"\b" + _YEAR.format("y") + r"-(?P<m>[01]\d)\b(?!-)",  # 2025-03
    r"\b" + _DAY.format("d") + r"(?:\s+of)?\s+" + _MONTH.format("mn") + r"\b",  # 1 May: the year is the context's
    r"\b" + _MONTH.format("mn") + r"\s+" + _DAY.format("d") + r"\b(?!:)",  # May 1
    r"(?<![\d/.-])" + _YEAR.format("y") + r"(?![\d/.]|-\d)",  # 2025
)]


class Found(NamedTuple):
    """A date found in a text: its ISO form ('' when its year is not written), where it is, and how it is written."""

    iso: str
    start: int
    end: int
    written: str
    month_day: tuple[int, int] | None = None
    """Month and day of a date written without its year ('from 1 May'); the year is the context's."""


def _iso(year: int | None, month: int | None, day: int | None) -> str | None:
    """The ISO form, or None when the parts make no date (31 February, month 13)."""
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None and month is not None:
        try:
            date(year or 2000, month, day)  # a leap year when the year is not given: 29 February may be real
        except ValueError:
            return None
    if year is None:
        return ""
    return f"{year:04d}" + (f"-{month:02d}" if month else "") + (f"-{day:02d}" if day and month else "")


def _found(match: re.Match[str]) -> Found | None:
    parts = match.groupdict()
    year = int(parts["y"]) if parts.get("y") else None
    month = MONTHS[parts["mn"].lower()] if parts.get("mn") else int(parts["m"]) if parts.get("m") else None
    day = int(parts["d"]) if parts.get("d") else None
    iso = _iso(year, month, day)
    if iso is None:
        return None
    month_day = (month, day) if year is None and month and day else None
    return Found(iso, match.start(), match.end(), match.group(0), month_day)


def dates_in(text: str) -> list[Found]:
    """Every date written in `text`, in order; of overlapping readings the fullest ('14 March 2025', not '2025')."""
    taken: list[Found] = []
    for form in _FORMS:  # fullest forms first: a span once read is not read again by a shorter form
        for match in form.finditer(text):
            if any(match.start() < t.end and t.start < match.end() for t in taken):
                continue
            if (found := _found(match)) is not None:
                taken.append(found)
    return sorted(taken, key=lambda f: f.start)


def read_date(text: str) -> str | None:
    """The ISO form of the first full date (with its year) written in `text`; None when there is none."""
    return next((f.iso for f in dates_in(text) if f.iso), None)


def in_year(found: Found, year: str | None) -> str | None:
    """A found date's ISO form, a date written without its year ('1 May') put in `year` (the document's)."""
    if found.iso:
        return found.iso
    if found.month_day and year and year[:4].isdigit():
        return _iso(int(year[:4]), *found.month_day)
    return None


SINCE = re.compile(
    r"\b(?:with effect from|effective(?: from| on| as of)?|as (?:of|from)|from|starting(?: on| from)?|since|"
    r"(?:agreed|decided|approved|announced|confirmed|changed|introduced) on|on or after)\s+"
    r"(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\s+)?", re.IGNORECASE)
"""What dates a statement: 'with effect from 1 April 2025', 'from Monday 15 July 2024', 'agreed on 3 June'."""


def statement_date(text: str, year: str | None) -> str | None:
    """The date a statement gives itself ('with effect from 1 April 2025'), ISO; None when it gives none.

    A date without its year ('from 1 May') takes `year` (its document's date); a form no date has ('from Q3 FY25')
    gives None, never an error.
    """
    for since in SINCE.finditer(text):
        found = dates_in(text[since.end():since.end() + 40])
        if found and found[0].start == 0 and (iso := in_year(found[0], year)):
            return iso
    return None


def unread_date(text: str) -> str:
    """The words after a dating phrase that no date form reads ('from Q3 FY25' gives 'Q3 FY25'); '' when none.

    Only a word with a digit counts ('from Q3 FY25', not 'from the office'): the trace names it as a date not read.
    """
    for since in SINCE.finditer(text):
        after = text[since.end():since.end() + 40]
        words = after.split()[:2]
        if words and any(c.isdigit() for c in words[0]) and not (dates_in(after) and dates_in(after)[0].start == 0):
            return " ".join(w.strip(".,;:") for w in words)
    return ""
