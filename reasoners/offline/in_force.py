"""Which of two statements of one thing is in force, and the value it gives.

A policy's table says 'Car or van: 45p per mile' (effective 1 April 2023); a later e-mail says 'From 1 April 2025
the mileage rate for cars and vans is 49p per mile'. Both state the same field with different values in different
documents; the one in force answers: not superseded and no draft or proposal first, then the later statement date
('with effect from 1 April 2025'), then the later document date. The other is set aside and reported in
`conflicts`; it never gives the short answer. Two statements that nothing orders (neither dated, both approved)
leave the best reading as it is, and the trace says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boundloop.domain import dates
from boundloop.domain.models import Conflict
from boundloop.domain.text import entities, stems, topic_words, values
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.spans import PATTERNS
from boundloop.reasoners.offline.units import Unit

_PROVISIONAL_DOCUMENT = re.compile(r"\bdraft\b|\bproposal\b|\bnot (?:yet )?approved\b|\bfor consultation\b",
                                   re.IGNORECASE)
"""A draft, a proposal or a text not approved: what it says is not in force ('DRAFT v0.3 — NOT APPROVED')."""
_PROVISIONAL_STATEMENT = re.compile(r"\bpropos(?:e|es|ed|al)\b|\bwould\b|\bif (?:it is )?approved\b|"
                                    r"\bunder (?:consultation|review)\b", re.IGNORECASE)
HEAD_CHARS = 400
"""A document says it is a draft or a proposal in its title or its opening lines."""
SAME_FIELD = 0.5
"""Two statements are of one field when this share of their subject words (values aside) is shared ..."""
MIN_SHARED, NEAR_FIELD = 3, 0.4
"""... or at least `MIN_SHARED` words and `NEAR_FIELD` of the smaller statement's."""
_KINDS = ("amount", "time", "date", "number")


def provisional(unit: Unit) -> bool:
    """Whether the statement is a draft's or a proposal's ('DRAFT-standby-proposal', 'we propose £45')."""
    evidence = unit.evidence
    return bool(_PROVISIONAL_DOCUMENT.search(f"{evidence.title} {evidence.doc_id.replace('-', ' ')}")
                or _PROVISIONAL_DOCUMENT.search(evidence.text[:HEAD_CHARS])
                or _PROVISIONAL_STATEMENT.search(unit.plain))


def statement_date(unit: Unit) -> str | None:
    """The date a statement gives itself ('with effect from 1 April 2025'), or None.

    A date without its year ('from 1 May') takes its document's year.
    """
    return dates.statement_date(unit.plain, unit.evidence.document_date)


@dataclass(frozen=True)
class Standing:
    """How a statement stands: approved (not superseded, no draft or proposal) and when it took effect (ISO)."""

    approved: bool
    effective: str | None
    """Its own date, else its document's; None when undated."""
    document: str | None

    def over(self, other: Standing) -> str:
        """Why this statement is in force over `other` ('' when it is not): 'approved', 'later' or 'later document'."""
        if self.approved != other.approved:
            return "approved" if self.approved else ""
        if _later(self.effective, other.effective):
            return "later"
        if self.effective == other.effective and _later(self.document, other.document):
            return "later document"
        return ""


def _later(mine: str | None, theirs: str | None) -> bool:
    """Whether one date is after the other; a date inside the other's precision ('2025' and '2025-03') is no later."""
    if not mine or not theirs or mine.startswith(theirs) or theirs.startswith(mine):
        return False
    return mine > theirs


def standing(unit: Unit) -> Standing:
    return Standing(not (unit.superseded or provisional(unit)), statement_date(unit) or unit.evidence.document_date,
                    unit.evidence.document_date)


def _kind(value: str) -> str | None:
    return next((kind for kind in _KINDS if PATTERNS[kind].fullmatch(value.strip())), None)


def subject(unit: Unit) -> set[str]:
    """What a statement is about: its words and its heading's and lead-in's, less those of the values it states."""
    said = set(unit.stems) | set(stems(f"{unit.heading} {unit.lead}"))
    return said - set(stems(" ".join(values(unit.plain))))


def _header(unit: Unit, value: str) -> frozenset[str]:
    """The stems of the header of the cell holding `value` ('Rate' for '45p per mile'); empty outside cells."""
    return next((frozenset(stems(c.header)) for c in unit.cells if c.header and _plain(value) in _plain(c.value)),
                frozenset())


def _names(unit: Unit) -> set[str]:
    return {k for name in entities(unit.plain, names_only=True) for k in stems(name)}


def same_field(a: Reading, b: Reading) -> bool:
    """Whether two readings give the same field of the same thing.

    Their values are written in the same unit ('per mile', 'hours'); things named in each are not all different
    ('Singapore fire drill' is not the Cambridge one); and the headers of the cells holding the values are one (when
    both are cells), or most of their subject words are.
    """
    if _unit_words(a.answer or "") != _unit_words(b.answer or ""):
        return False
    names = _names(a.unit), _names(b.unit)
    if names[0] and names[1] and not names[0] & names[1]:
        return False
    headers = _header(a.unit, a.answer or ""), _header(b.unit, b.answer or "")
    if headers[0] and headers[1]:  # cells: 'Rate' and 'Limit per transaction' are two fields of a country
        return headers[0] == headers[1] and len(subject(a.unit) & subject(b.unit)) >= 2
    mine, theirs = subject(a.unit), subject(b.unit)
    shared = mine & theirs
    return len(shared) >= SAME_FIELD * max(len(mine | theirs), 1) or \
        (len(shared) >= MIN_SHARED and len(shared) >= NEAR_FIELD * min(len(mine), len(theirs)))


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text).casefold().split())


def _unit_words(value: str) -> str:
    """What a value is counted in: 'p per mile' of '45p per mile', 'hours' of '12 hours', '' of '£38.50'."""
    return " ".join(re.sub(r"[\d.,]+", " ", _plain(value)).split())


def same_value(a: str, b: str) -> bool:
    """Whether two values are one: '£38.50' and '£38.50 per night', '2 hours' and 'every 2 hours' (not £5 and £50)."""
    mine, theirs = f" {_plain(a)} ", f" {_plain(b)} "
    return bool(mine.strip() and theirs.strip()) and (mine in theirs or theirs in mine)


@dataclass(frozen=True)
class Settled:
    """The reading in force, the conflict it settles, and what the trace says of it."""

    reading: Reading
    conflicts: list[Conflict]
    note: str


def rivals(answer: Reading, readings: list[Reading], floor: float) -> list[Reading]:
    """Readings of other documents giving another value of the answer's kind for the same field."""
    kind = _kind(answer.answer or "")
    if kind is None:
        return []
    doc = answer.unit.evidence.doc_id
    return [r for r in readings if r.answer and r.unit.evidence.doc_id != doc and r.coverage >= floor and
            not same_value(r.answer, answer.answer or "") and _kind(r.answer) == kind and
            not r.unit.is_heading and same_field(answer, r)]


def _conflict(kept: Reading, aside: Reading, why: str) -> Conflict:
    shared = subject(kept.unit) & subject(aside.unit)
    return Conflict(topic=topic_words(kept.unit.plain, shared) or topic_words(kept.unit.plain, subject(kept.unit)),
                    values=[kept.answer or "", aside.answer or ""],
                    chunk_ids=[kept.unit.evidence.chunk_id, aside.unit.evidence.chunk_id],
                    in_force=kept.answer, in_force_chunk_id=kept.unit.evidence.chunk_id,
                    dates=[standing(kept.unit).effective, standing(aside.unit).effective], reason=why)


def in_force(answer: Reading, readings: list[Reading], floor: float) -> Settled | None:
    """The statement in force among the answer and its rivals, with the values set aside; None without rivals.

    A rival in force over the answer answers instead; rivals the answer is in force over are set aside. A rival
    nothing orders against the answer (undated, or dated alike) is named in the note and changes nothing.
    """
    found = rivals(answer, readings, floor)
    if not found:
        return None
    mine = standing(answer.unit)
    over = [(r, why) for r in found if (why := standing(r.unit).over(mine))]
    kept = answer
    if over:
        best = max(over, key=lambda pair: (standing(pair[0].unit).approved, standing(pair[0].unit).effective or "",
                                           pair[0].score))
        kept = best[0]
    held = standing(kept.unit)
    conflicts: list[Conflict] = []
    unordered: list[str] = []
    for r in [answer, *found]:
        if r is kept or same_value(r.answer or "", kept.answer or "") or \
                any(same_value(r.answer or "", c.values[1]) for c in conflicts):
            continue
        if why := held.over(standing(r.unit)):
            conflicts.append(_conflict(kept, r, why))
        else:
            unordered.append(f"{r.unit.evidence.doc_id} ({standing(r.unit).effective or 'undated'})")
    note = f"in force: {kept.answer!r} of {kept.unit.evidence.doc_id} ({held.effective or 'undated'})"
    if conflicts:
        note += "; set aside " + ", ".join(f"{c.values[1]!r} ({c.reason})" for c in conflicts)
    if unordered:
        note += "; not ordered against " + ", ".join(dict.fromkeys(unordered)) + " (no date read, or the same date)"
    return Settled(kept, conflicts, note)
