"""A value that another document says was changed.

A policy says 'ANPR cameras will go live in the Northgate staff car park on 2 June 2025'; later minutes say 'the
go-live of ANPR in the Northgate staff car park is postponed from 2 June 2025 to Monday 7 July 2025'. The policy's
sentence reads better for the question, yet the answer is the new date. A change names the old value and the
subject, so the answer stands as read unless a unit of the evidence changes that very value on that subject.
"""

from __future__ import annotations

import re
from dataclasses import replace

from boundloop.domain.models import Conflict
from boundloop.domain.text import stems, topic_words, values
from boundloop.reasoners.offline.in_force import provisional, standing
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.spans import PATTERNS

_CHANGE = re.compile(
    r"\b(?:postponed|delayed|deferred|rescheduled|brought forward|put back|pushed back|moved|moves|changed|reduced|"
    r"increased|raised|lowered|cut|extended|shortened|(?:go|goes|went|gone|going) (?:up|down)|rises?|rose|risen|"
    r"falls?|fell|fallen|drops?|dropped|increases?|decreases?|decreased|updated|revised|amended)\s+"
    r"from\s+(?P<old>[^;]+?)\s+to\s+(?P<new>[^;]+)",
    re.IGNORECASE)
_WAS = re.compile(r"(?P<new>[^;()]+?)\s*[(,]\s*(?:was|previously|formerly|replacing|up from|down from)\s+"
                  r"(?P<old>[^;()]+?)\s*\)|(?P<now>[^;()]+?)\s+instead of\s+(?P<before>[^;()]+)")
"""A new value beside the old one: 'every 90 minutes (was every 2 hours)', '15 minutes instead of 30'."""
SAME_SUBJECT = 0.4
"""The change must share this share of the smaller unit's words (values aside) with the answer's unit."""
MIN_SHARED = 3
"""And at least this many words: 'the staff car park' alone is no subject."""


def change_in(text: str) -> tuple[str, str] | None:
    """The old and the new value a sentence says one changed into the other, or None."""
    if found := _CHANGE.search(text):
        return found["old"], found["new"]
    if found := _WAS.search(text):
        return (found["old"], found["new"]) if found["old"] else (found["before"], found["now"])
    return None


def _subject(reading: Reading) -> set[str]:
    """A unit's words, without those of the values it states."""
    return set(reading.unit.stems) - set(stems(" ".join(values(reading.unit.plain))))


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text).casefold().split())


def _same_kind(old: str, changed_to: str) -> str | None:
    """The first value in `changed_to` of the kind `old` is written as ('49p per mile' for '45p per mile')."""
    for kind in ("amount", "time", "date", "number"):
        if PATTERNS[kind].fullmatch(old.strip()) and (match := PATTERNS[kind].search(changed_to)):
            return match.group(0).strip(" .,;")
    return None


def changed_value(answer: Reading, readings: list[Reading]) -> tuple[Reading, Conflict] | None:
    """The reading that changes the answer's value on its subject, with the conflict it settles; None if none does.

    It must be another unit, in a document not marked superseded and no draft or proposal, that names the answer's
    value as the old one and gives a new value of the same kind as its own answer.
    """
    value = _plain(answer.answer or "")
    if not value:
        return None
    said = _subject(answer)
    own = change_in(answer.unit.plain)
    if own is not None and value in _plain(own[0]) and not provisional(answer.unit) and \
            (new_value := _same_kind(answer.answer or "", own[1])):
        # the answer's own sentence changes it: 'will go up from 45p per mile to 49p per mile'
        return replace(answer, answer=new_value), Conflict(
            topic=topic_words(answer.unit.plain, said), values=[new_value, answer.answer or ""],
            chunk_ids=[answer.unit.evidence.chunk_id], in_force=new_value,
            in_force_chunk_id=answer.unit.evidence.chunk_id, dates=[standing(answer.unit).effective] * 2,
            reason="changed")
    for other in readings:
        if other.unit is answer.unit or other.unit.superseded or other.answer is None or provisional(other.unit):
            continue
        found = change_in(other.unit.plain)
        if found is None or value not in _plain(found[0]):
            continue
        if _plain(other.answer) not in _plain(found[1]) and (same := _same_kind(answer.answer or "", found[1])):
            other = replace(other, answer=same)  # 'go up from 45p per mile to 49p per mile': the unit's first is old
        new = _plain(other.answer or "")
        if new == value or new not in _plain(found[1]):
            continue
        theirs = _subject(other)
        shared = said & theirs
        if answer.unit.superseded:  # its very value, said by a current statement to have changed: a word in common
            related = bool(shared)
        else:
            related = len(shared) >= MIN_SHARED and len(shared) >= SAME_SUBJECT * min(len(said), len(theirs))
        if related:
            return other, Conflict(topic=topic_words(answer.unit.plain, shared),
                                   values=[other.answer or "", answer.answer or ""],
                                   chunk_ids=[other.unit.evidence.chunk_id, answer.unit.evidence.chunk_id],
                                   in_force=other.answer, in_force_chunk_id=other.unit.evidence.chunk_id,
                                   dates=[standing(other.unit).effective, standing(answer.unit).effective],
                                   reason="changed")
    return None
