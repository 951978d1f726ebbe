"""Values a text joins, read as one answer.

A range of dates or times ('2025-08-04 to 2025-08-08', 'between 02:00 and 04:00') is one answer unless the
question asks when it starts or ends; a change ('reduced from 10 km/h to 8 km/h') answers with its new value.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Protocol, TypeVar


class _Span(Protocol):
    """A value found in a text (a candidate answer): where it starts, as written, of what kind."""

    @property
    def start(self) -> int: ...

    @property
    def text(self) -> str: ...

    @property
    def kind(self) -> str: ...


Candidate = TypeVar("Candidate", bound=_Span)

_RANGE_JOIN = re.compile(r"\s*(?:to|until|till|through|–|—|-)\s*$", re.IGNORECASE)
_STARTS = re.compile(r"\b(?:start|starts|started|begin|begins|began|from|first|open|opens|opened|commence|commences|"
                     r"kick off|born|birth|birthday|founded|established|created|launched)\b", re.I)
_ENDS = re.compile(r"\b(?:end|ends|ended|finish|finishes|last|close|closes|closed|until|conclude|concludes|die|dies|"
                   r"died|death|dissolved|abolished)\b", re.I)


_CHANGED_FROM = re.compile(r"\b(?:reduced|increased|raised|lowered|changed|cut|rises|rose|falls|fell|goes up|goes "
                           r"down|went up|went down|moves|moved|drops|dropped|extended|shortened|postponed|delayed|"
                           r"deferred|rescheduled|brought forward|put back|pushed back)\s+from\s*$", re.I)


_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_DAYS_BEFORE = re.compile(rf"\b((?:every |each )?{_DAY}(?:\s*(?:to|-|–|and)\s*{_DAY})?|weekdays|weekends|working days)"
                          r",?\s+(?:from\s+|between\s+)?$", re.IGNORECASE)
"""The days a time window holds on, written just before it."""
_WINDOW = re.compile(r"\d\s*(?:–|—|-|to|until|and)\s*\d", re.IGNORECASE)


def _on_days(kind: str, found: list[Candidate], text: str) -> list[Candidate]:
    """A time window with the days it holds on ('Sundays between 02:00 and 04:00', 'Monday to Friday 07:00–20:00')."""
    if kind != "time":
        return found
    return [replace(c, text=f"{days[1]} {c.text}")  # type: ignore[type-var]
            if _WINDOW.search(c.text) and (days := _DAYS_BEFORE.search(text[:c.start])) else c for c in found]


def ranges_of(kind: str, found: list[Candidate], text: str, question: str) -> list[Candidate]:
    """Two dates or times joined as a range ('2025-08-04 to 2025-08-08', 'between 02:00 and 04:00') are one answer.

    When the question asks when something starts or ends, the answer is the range's first or last value.
    """
    values = sorted((c for c in found if c.kind == kind), key=lambda c: c.start)
    pairs = [(a, b) for a, b in zip(values, values[1:], strict=False)
             if not _CHANGED_FROM.search(text[:a.start]) and (  # 'postponed from 2 June to 7 July' is no range
                 _RANGE_JOIN.fullmatch(text[a.start + len(a.text):b.start]) or (
                     re.fullmatch(r"\s*and\s*", text[a.start + len(a.text):b.start])
                     and re.search(r"\bbetween\s*$", text[:a.start], re.I)))]
    if not pairs:
        return _on_days(kind, found, text)
    starts, ends = bool(_STARTS.search(question)), bool(_ENDS.search(question))
    kept = [c for c in found if not any(c is a or c is b for a, b in pairs)]
    for a, b in pairs:
        if starts != ends:
            kept.append(a if starts else b)
        else:
            joined = text[a.start:b.start + len(b.text)]
            merged: Any = replace(a, text=f"between {joined}" if " and " in joined else joined)  # type: ignore[type-var]
            kept.append(merged)
    return _on_days(kind, kept, text)


def changed(found: list[Candidate], text: str) -> list[Candidate]:
    """'reduced from 10 km/h to 8 km/h': the value it is changed to, not the one it was."""
    ordered = sorted(found, key=lambda c: c.start)
    old = {id(a) for a, b in zip(ordered, ordered[1:], strict=False)
           if a.kind == b.kind and re.fullmatch(r"\s*to\s*", text[a.start + len(a.text):b.start])
           and _CHANGED_FROM.search(text[:a.start])}
    return [c for c in found if id(c) not in old]
