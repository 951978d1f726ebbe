"""Reading: which unit of the evidence answers the question, and the value in it the question asks for.

A unit is scored by how much of the question it and its context (title, heading, lead-in) cover, weighted by
rarity, and by whether it holds a value of the expected kind that the question does not already state. The short
answer is that value: in a table row, preferably the cell whose header names what is asked ('Room: 3.12'), else
the typed span nearest to the words the question matched.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from domain.text import entities, stem, stems, values
from reasoners.offline.answer_types import Expected
from reasoners.offline.ranges import amounts, excludes, held_values
from reasoners.offline.spans import finditer
from reasoners.offline.units import Cell, Unit, plain

CONTEXT_SHARE = 0.5
"""What a question word found only in a unit's title, heading or lead-in counts for."""
PASSAGE_SHARE = 0.25
"""What a question word found only elsewhere in the unit's chunk counts for."""
ENTITY_BOOST = 1.5
GENERIC_WEIGHT = 0.3
GENERIC = frozenset(stems(
    """need want use get make person people someone somebody anyone thing things way know find tell give take go
    come say think look help ask work put let keep try happen one ones current currently"""
))
"""Words that say little of what is asked ('the person I need to ask'): they weigh less."""
TYPED_KINDS = {"amount", "number", "date", "time", "phone", "email", "url", "room", "code"}
"""Kinds whose value has a recognisable form: a unit without one cannot answer."""
FOUND_BONUS, MISSING_PENALTY, SUPERSEDED_PENALTY, HEAD_BONUS = 0.2, 0.3, 0.3, 0.15
OUT_OF_RANGE_PENALTY = 0.3
"""A row about other amounts than the question's is as unlikely to answer as a superseded one."""
GIVEN_KINDS = ("date", "amount", "time", "code")
"""Kinds of value a question may give to select a row ('the week of 9 March 2026', 'a EUR 15,000 subscription')."""
SUBJECT_BONUS = 2.0
"""How much a definitional sentence's subject is preferred, times the share of the question its description says."""

_SPAN_KINDS: dict[str, tuple[str, ...]] = {
    "amount": ("amount", "number"),
    "number": ("number", "amount"),
    "date": ("date",),
    "time": ("time",),
    "phone": ("phone",),
    "email": ("email",),
    "url": ("url", "email"),
    "room": ("room", "code"),
    "code": ("code", "emphasis"),
    "person": ("name",),
    "place": ("name", "room", "locative"),
    "name": ("emphasis", "code", "name"),
    "other": ("emphasis", "name"),
    "list": ("emphasis", "name"),
}
_KIND_HEADERS: dict[str, set[str]] = {
    "phone": {"extension", "phone", "mobile", "tel", "telephone", "number"},
    "email": {"email", "e-mail", "contact"},
    "url": {"url", "address", "link", "web", "website", "site"},
    "room": {"room", "desk", "office", "location", "area", "floor", "seat", "workstation"},
    "person": {"name", "owner", "lead", "approver", "contact", "person", "manager", "head", "who", "sponsor"},
    "code": {"id", "identifier", "code", "channel", "slack", "command", "reference", "ref"},
    "date": {"date", "day", "when", "deadline", "year", "month"},
    "time": {"time", "hours", "when"},
}


@dataclass(frozen=True)
class Reading:
    """How well one unit answers the question, and the value it gives."""

    unit: Unit
    coverage: float
    """Weighted share of the question it and its context cover."""
    fit: float
    """Everything else: a value of the expected kind found (or not), the head noun, rank, a superseded document."""
    answer: str | None
    given: bool = False
    """Whether it states a value the question gives (a date, an amount, a code), or a range holding it."""

    @property
    def score(self) -> float:
        return self.coverage + self.fit

    @property
    def applies(self) -> bool:
        """Whether it is current and about the question's amounts (not superseded, not another amount's row)."""
        return not (self.unit.superseded or self.unit.out_of_range)


def term_weights(question: str, units: list[Unit]) -> dict[str, float]:
    """Rarity weights of the question's stems over the units; named entities weigh more."""
    keys = stems(question)
    named = set().union(*(stems(e) for e in entities(question))) if keys else set()
    n = max(len(units), 1)
    weights: dict[str, float] = {}
    for key in sorted(keys):  # a fixed order: float sums over the weights must not depend on hash seeds
        df = sum(key in u.stems or key in u.context_stems for u in units)
        weights[key] = math.log(1 + n / (1 + df)) * (ENTITY_BOOST if key in named else 1.0)
        weights[key] *= GENERIC_WEIGHT if key in GENERIC else 1.0
    return weights


def coverage(units: list[Unit], weights: dict[str, float]) -> float:
    """Weighted share of the question's stems in the units (a chain reads as one).

    Context words count `CONTEXT_SHARE` and the rest of their chunks `PASSAGE_SHARE`.
    """
    total = sum(weights.values())
    if not total:
        return 0.0
    inside = frozenset().union(*(u.stems for u in units))
    around = frozenset().union(*(u.context_stems for u in units)) - inside
    passage = frozenset().union(*(u.chunk_stems for u in units)) - inside - around
    found = sum(w for k, w in weights.items() if k in inside)
    found += CONTEXT_SHARE * sum(w for k, w in weights.items() if k in around)
    found += PASSAGE_SHARE * sum(w for k, w in weights.items() if k in passage)
    return found / total


_LITERAL_KINDS = {"code", "url", "email", "phone", "room"}
_OTHER_FORMS = ("date", "time", "phone", "code", "url", "room")


def _asked(span: str, kind: str, question: str, question_stems: set[str], question_values: set[str]) -> bool:
    """Whether the question already states this span (then it cannot be the answer).

    Codes, addresses and numbers count as stated only when the question holds them as written ('/room' is not
    stated by 'book a room').
    """
    if kind in _LITERAL_KINDS:
        return span.lower() in question.lower()
    own = stems(span)
    if own and own <= question_stems:
        return True
    found = set(values(span))
    return bool(found) and found <= question_values


def _cell_fit(cell: Cell, expected: Expected, question_stems: set[str]) -> float:
    """How strongly a cell's header says it holds what is asked.

    It names the head noun (1.0), is a header word of the kind (0.8), or is a column the question names (0.6).
    """
    if not cell.header:
        return 0.0
    header = stems(cell.header)
    if expected.head and stem(expected.head) in header:
        return 1.0
    words = set(re.findall(r"[a-z-]+", cell.header.lower()))
    if words & _KIND_HEADERS.get(expected.kind, set()):
        return 0.8
    if header & question_stems:
        return 0.6
    return 0.0


def answer_span(unit: Unit, expected: Expected, question: str) -> tuple[str, float] | None:
    """The value of the expected kind in `unit` that the question does not state, with its cell's fit.

    The fit says how well the table cell holding it fits what is asked (0 to 1; 0 outside tables). None when there
    is no such value.
    """
    kinds = _SPAN_KINDS.get(expected.kind)
    if not kinds:
        return None
    question_stems, question_values = stems(question), set(values(question))
    text = plain(unit.text)
    anchors = [m.start() for k in question_stems for m in re.finditer(rf"\b{re.escape(k)}", text, re.IGNORECASE)]
    best: tuple[float, str, float] | None = None
    cell_starts = _cell_offsets(text, unit.cells)
    # a number that is part of a date, a time, a phone number or a code is not a count or an amount; a date is not
    # a name
    blocking = _OTHER_FORMS if expected.kind in ("number", "amount") else ("date", "time") if expected.kind in (
        "person", "place", "name", "other", "list") else ()
    taken = [range(s, e) for k in blocking for s, e in finditer(k, text)]
    subject = _defined(text)
    for rank, kind in enumerate(kinds):
        for start, end in finditer(kind, text):
            span = text[start:end].strip(" ,;.")
            if not span or _asked(span, kind, question, question_stems, question_values):
                continue
            if kind in ("number", "name") and any(start in r for r in taken):
                continue
            if expected.kind == "person" and " and " in span:
                span = span.split(" and ")[0]
            fit = max((_cell_fit(c, expected, question_stems) for c, (s, e) in cell_starts if s <= start < e),
                      default=0.0)
            distance = min((abs(start - a) for a in anchors), default=len(text))
            score = 2.0 * fit - 0.3 * rank - distance / max(len(text), 40)
            if subject and start == subject[0] and kind in ("name", "emphasis"):
                # 'Armin Meiwes (born 1961) is a German computer repair technician': the question describes him
                score += SUBJECT_BONUS * len(question_stems & stems(text[subject[1]:])) / max(len(question_stems), 1)
            if best is None or score > best[0]:
                best = (score, span, fit)
    if best is None and expected.kind not in ("yes_no", "choice", "explanation", "list"):
        best = _cell_value(unit, expected, question_stems)
    return (best[1], best[2]) if best else None


_DEFINITION = re.compile(r"\s*(?:\([^)]*\)\s*|,[^,]{0,60},\s*)?(?:is|was|are|were|has been|had been)\s+(?:a|an|the)?\b")


def _defined(text: str) -> tuple[int, int] | None:
    """Where a definitional sentence's subject starts, and where its description starts ('X (...) is a ...')."""
    for start, end in finditer("name", text[:80]):
        if start > 4:
            break
        match = _DEFINITION.match(text, end)
        if match:
            return start, match.end()
    return None


def _cell_offsets(text: str, cells: tuple[Cell, ...]) -> list[tuple[Cell, tuple[int, int]]]:
    """Where each cell's value stands in the unit's plain text."""
    found, at = [], 0
    for cell in cells:
        start = text.find(cell.value, at)
        if start >= 0:
            found.append((cell, (start, start + len(cell.value))))
            at = start + len(cell.value)
    return found


def _cell_value(unit: Unit, expected: Expected, question_stems: set[str]) -> tuple[float, str, float] | None:
    """A whole cell as the answer to a who/what question, when its header names what is asked."""
    scored = [(_cell_fit(c, expected, question_stems), c.value) for c in unit.cells
              if not stems(c.value) <= question_stems]
    fit, value = max(scored, default=(0.0, ""))
    return (fit, value, fit) if fit >= 0.8 else None


def read(question: str, expected: Expected, units: list[Unit], rank_of: dict[str, int],
         weights: dict[str, float] | None = None) -> list[Reading]:
    """Every non-heading unit scored for the question, best first."""
    weights = weights if weights is not None else term_weights(question, units)
    if amounts(question):
        units = [replace(u, holds=tuple(held)) if (held := held_values(u.plain, question)) else
                 replace(u, out_of_range=True) if excludes(u.plain, question) else u for u in units]
    given = [question[s:e].lower() for kind in GIVEN_KINDS for s, e in finditer(kind, question)]
    question_stems = set(weights)
    head = stem(expected.head) if expected.head else ""
    readings: list[Reading] = []
    for unit in units:
        if unit.is_heading or not (unit.stems - question_stems):
            continue
        found = answer_span(unit, expected, question) if expected.wants_value else None
        answer, cell_fit = found if found else (None, 0.0)
        fit = 0.05 / (1 + rank_of.get(unit.evidence.chunk_id, 0))
        if head and head in unit.stems:
            fit += HEAD_BONUS
        if expected.kind in TYPED_KINDS or expected.kind in ("person", "place", "name"):
            strict = expected.kind in TYPED_KINDS
            fit += FOUND_BONUS * (1 + cell_fit) if answer else -(MISSING_PENALTY if strict else MISSING_PENALTY / 3)
        if unit.superseded:
            fit -= SUPERSEDED_PENALTY
        if unit.out_of_range:
            fit -= OUT_OF_RANGE_PENALTY
        states = bool(unit.holds) or any(value in unit.plain.lower() for value in given)
        readings.append(Reading(unit, coverage([unit], weights), fit, answer, states))
    return sorted(readings, key=lambda r: -r.score)
