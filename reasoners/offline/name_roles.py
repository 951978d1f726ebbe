"""What a name's place and form say of whether it is the answer.

A name standing where the question's own words put the answer ('developed by which company': the name after
'developed by') likely is; a name after 'by' is the doer, rarely the thing asked for ('written by David Brock' for
'what book').
"""

from __future__ import annotations

import re
from functools import lru_cache

from boundloop.domain.text import stem

_BEFORE_WH = re.compile(r"\b([a-z]{3,})\s+(by|in|at|from|for|with|on|into|under|as)\s+(?:which|what|whom|whose)\b",
                        re.I)
_WH_VERB = re.compile(r"^\s*(?:which|what|who)\s+(?:[a-z]+\s+){0,2}?([a-z]{3,}(?:ed|s))\b", re.I)
_AFTER_BY = re.compile(r"\bby\s+$")


@lru_cache(maxsize=256)
def alignments(question: str) -> tuple[re.Pattern[str], ...]:
    """Where the passage's answer stands by the question's own words.

    'developed by which company' is answered by the name after 'developed by'; 'Which company developed X?' by the
    name after 'developed by' too, or before 'developed'. Kept per question: every unit of the evidence asks it again.
    """
    found = []
    if match := _BEFORE_WH.search(question):
        found.append(re.compile(rf"\b{re.escape(stem(match.group(1).lower()))}\w*\s+{match.group(2)}\s+$", re.I))
    if match := _WH_VERB.search(question):
        verb = re.escape(stem(match.group(1).lower()))
        found.append(re.compile(rf"\b{verb}\w*\s+by\s+$", re.I))
        found.append(re.compile(rf"^\s*(?:has\s+|had\s+|was\s+|is\s+)?{verb}\w*\b", re.I))
    return tuple(found)


def aligned(patterns: tuple[re.Pattern[str], ...], text: str, start: int, length: int) -> bool:
    """Whether a name stands where an alignment of the question puts the answer."""
    before, after = text[max(0, start - 40):start], text[start + length:start + length + 40]
    return any(p.search(before) if p.pattern.endswith("$") else p.search(after) for p in patterns)


def after_by(text: str, start: int) -> bool:
    """Whether a name follows 'by' ('written by David Brock')."""
    return _AFTER_BY.search(text[max(0, start - 4):start]) is not None


_IN_NAME_BEFORE = re.compile(r"[A-Z][\w'’.-]*\s+[\"“]$")
_IN_NAME_AFTER = re.compile(r"[\"”]\s+[A-Z]")
_NICKNAME_ASKED = re.compile(r"\b(?:nick ?name|known as|called|dubbed)\b", re.I)


def unasked_nickname(text: str, start: int, end: int, question: str) -> bool:
    """Whether the quoted span at `start`-`end` is a nickname set inside a name that the question does not ask for.

    '"Doug"' of 'Lyle Douglas "Doug" Basham' is part of that name, not an answer of its own.
    """
    return _IN_NAME_BEFORE.search(text[max(0, start - 40):start]) is not None and \
        _IN_NAME_AFTER.match(text, end) is not None and not _NICKNAME_ASKED.search(question)


def head_named(text: str, head: str, names: list[tuple[int, int]]) -> dict[int, int]:
    """The names (`names`, spans of the text) that end in the noun asked for ('Alachua County' for 'what county').

    Such a name is headed itself; its noun does not head the names beside it ('Alachua County, Florida, United
    States' does not make 'United States' a county).
    """
    if not head:
        return {}
    return {s: e for s, e in names if " " in text[s:e] and stem(text[s:e].split()[-1].lower()) == head}


def blanked(text: str, spans: dict[int, int]) -> str:
    """The text with `spans` blanked out, offsets kept."""
    for start, end in spans.items():
        text = text[:start] + " " * (end - start) + text[end:]
    return text


_REGION = re.compile(r"(,\s[A-Z][\w'’-]+(?:\s[A-Z][\w'’-]+){0,2})(?=\s*(?:[.;)]|,\s[a-z]|$|\s[a-z]))"
                     r"(?!\s+(?:and|or)\s+[A-Z])")
"""A region after a place ('Hastings, Minnesota'), ending its clause: not the next item of a list."""
_LISTED = re.compile(r"[A-Z][\w'’-]*,\s*$")


def as_place(text: str, start: int, name: str) -> str:
    """The name at `start` as a place, with the region closing its clause ('Hastings, Minnesota').

    A place that is an item of a list ('Leeds, Tilburg and Gdańsk') keeps no region.
    """
    region = _REGION.match(text, start + len(name))
    return f"{name}{region.group(1)}" if region and not _LISTED.search(text[:start]) else name


ROLE_TITLE = re.compile(
    r"^(?:Head|Chief|Director|Vice[ -]President|VP)\s+of\b|\b(?:Lead|Leader|Manager|Director|Officer|Supervisor|"
    r"Coordinator|Co-ordinator|Administrator|Controller|Chair|Chairperson|Secretary|Head|Owner|Advis[eo]r|Partner|"
    r"Representative|Specialist|Analyst|Technician|Operator|Engineer|Steward|Warden|Desk|Handler|Assistant|Agent|"
    r"Clerk|Planner|Inspector|Consultant|Underwriter|Accountant|Executive|Associate|Scientist|Surveyor)s?$")
"""The title of a role, not a person's name: it opens with 'Head of' or ends in a role's noun."""
_APPOSITION = re.compile(r",\s+((?:[A-Z][\w&-]*\s+){0,4}[A-Z][\w-]*)\b")


def introduced(text: str, end: int) -> bool:
    """Whether the name ending at `end` is followed by its role: how a person is introduced.

    'Aisha Bello, Senior Claims Handler in Cardiff': the name is a person's, the role is not the answer.
    """
    after = _APPOSITION.match(text, end)
    return after is not None and ROLE_TITLE.search(after.group(1)) is not None


def role_title(span: str, before: str) -> bool:
    """Whether a name is a role's title ('Regional Operations Lead'), or the acronym one introduces ('(ROL)')."""
    return ROLE_TITLE.search(span) is not None or \
        span.isupper() and ROLE_TITLE.search(before.rstrip(" (*_")) is not None
