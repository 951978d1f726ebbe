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

from boundloop.domain.text import entities, stem, stems
from boundloop.policies.deadline import within
from boundloop.reasoners.offline.answer_types import Expected, head_phrase, kind_of_phrase
from boundloop.reasoners.offline.candidates import ASKS_BOUND, best
from boundloop.reasoners.offline.headed_years import by_heading_year
from boundloop.reasoners.offline.measures import rate_of
from boundloop.reasoners.offline.quantities import Quantity, banded, quantities
from boundloop.reasoners.offline.ranges import amounts, catch_all, excludes, held_values
from boundloop.reasoners.offline.spans import finditer
from boundloop.reasoners.offline.units import Unit
from boundloop.reasoners.offline.verbs import asked_verb, doer_verb
from boundloop.reasoners.offline.vocabulary import words

CONTEXT_SHARE = 0.5
"""What a question word found only in a unit's title, heading or lead-in counts for."""
PASSAGE_SHARE = 0.25
"""What a question word found only elsewhere in the unit's chunk counts for."""
ENTITY_BOOST = 1.5
GENERIC_WEIGHT = 0.3
GENERIC = frozenset(stems(
    """need want use get make person people someone somebody anyone thing things way know find tell give take go
    come say think look help ask work put let keep try happen one ones current currently after before during within
    since until"""
))
"""Words that say little of what is asked ('the person I need to ask'): they weigh less."""
TYPED_KINDS = {"amount", "number", "date", "time", "phone", "email", "url", "room", "code"}
"""Kinds whose value has a recognisable form: a unit without one cannot answer."""
FOUND_BONUS, MISSING_PENALTY, SUPERSEDED_PENALTY, HEAD_BONUS, VERB_BONUS = 0.2, 0.3, 0.5, 0.15, 0.02
DOER_BONUS = 0.1
"""A row whose column names the doer of the question's verb ('Approver' for 'who has to approve') names whom the
question asks about; a sentence that only uses the verb does not."""
ONE_WORD_PENALTY = 0.2
"""A person asked for ('Which retired baseball player ...?') is named in full; a one-word name is more often a film,
a band or a surname left over ('Moneyball', 'Five'). Measured at 0.1-0.3 on HotpotQA dev: 0.2 gains two and loses
none; 0.3 begins to lose comparisons."""
_MONONYMS = words("mononym_headers")
"""Asked nouns whose people go by one name ('what character ... Stan')."""
BOUND_BONUS = 0.1
"""For a question asking for a bound, a unit whose value a bound of that side leads into ('may not exceed 10 hours')."""
HEADED_FIT = 0.03
"""A unit whose value stands beside the noun the question asks for; a tie-breaker (0.1 measured worse on dev)."""
ALIGNED_FIT = 0.3
"""A unit whose value stands where the question's own words put the answer ('directed by Christopher Nolan' for 'who
directed'). Measured on HotpotQA dev at 0.05-0.5: 0.05-0.2 gain one question, 0.3-0.4 three, 0.5 starts withdrawing
answers."""
COUNT_FOR_AMOUNT_PENALTY = FOUND_BONUS
"""An amount asked for, and the unit's value is a bare number ('Staff spaces: 410' for 'what's the fine'): it does not
count as the amount found."""
RATE_BONUS, RATE_PENALTY = 0.05, 0.3
"""A rate asked for ('per hour'): the unit's value given at that rate, or at another ('Daily meal allowance')."""
OUT_OF_RANGE_PENALTY = 0.3
"""A row about other amounts than the question's is as unlikely to answer as a superseded one."""
GIVEN_KINDS = ("date", "amount", "time", "code")
"""Kinds of value a question may give to select a row ('the week of 9 March 2026', 'a EUR 15,000 subscription')."""

_HOW = re.compile(r"\bhow\s+(?:long|far|often|old|big|large|soon|late|early|high|tall|wide|deep|heavy|fast|quickly|"
                  r"frequently)\b", re.I)
"""'How long' asks for a duration: 'long' is not a word the answer must contain."""


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
    supplied: frozenset[str] = frozenset()
    """The words of what is asked that its answer stands for: 'web address' when a URL is asked and found."""
    distance: float = 1.0
    """How far its answer stands from the words the question matched, over the unit's length (1 without one)."""
    doer: bool = False
    """Whether a column of it names the doer of the question's verb ('Approver' for 'who has to approve')."""

    @property
    def score(self) -> float:
        return self.coverage + self.fit

    @property
    def applies(self) -> bool:
        """Whether it is current and about the question's amounts (not superseded, not another amount's row)."""
        return not (self.unit.superseded or self.unit.out_of_range)


def term_weights(question: str, units: list[Unit]) -> dict[str, float]:
    """Rarity weights of the question's stems over the units; named entities weigh more."""
    keys = stems(_HOW.sub(" ", question))
    named = set().union(*(stems(e) for e in entities(question))) if keys else set()
    n = max(len(units), 1)
    weights: dict[str, float] = {}
    for key in sorted(keys):  # a fixed order: float sums over the weights must not depend on hash seeds
        df = sum(key in u.stems or key in u.context_stems for u in units)
        weights[key] = math.log(1 + n / (1 + df)) * (ENTITY_BOOST if key in named else 1.0)
        weights[key] *= GENERIC_WEIGHT if key in GENERIC else 1.0
    return weights


def coverage(units: list[Unit], weights: dict[str, float], supplied: frozenset[str] = frozenset()) -> float:
    """Weighted share of the question's stems in the units (a chain reads as one).

    Context words count `CONTEXT_SHARE` and the rest of their chunks `PASSAGE_SHARE`. `supplied`: words of what is
    asked that the answer found stands for ('web address' for the URL found).
    """
    total = sum(weights.values())
    if not total:
        return 0.0
    inside = frozenset().union(*(u.stems for u in units), supplied)
    around = frozenset().union(*(u.context_stems for u in units)) - inside
    passage = frozenset().union(*(u.chunk_stems for u in units)) - inside - around
    found = sum(w for k, w in weights.items() if k in inside)
    found += CONTEXT_SHARE * sum(w for k, w in weights.items() if k in around)
    found += PASSAGE_SHARE * sum(w for k, w in weights.items() if k in passage)
    return found / total


def supplied_words(question: str, expected: Expected) -> frozenset[str]:
    """Stems of the words naming the kind of value asked ('web address', 'extension', 'cost'), for typed kinds.

    A value of that kind found stands for them; the phrase's other words ('monthly') must still be covered.
    """
    if expected.kind not in TYPED_KINDS:
        return frozenset()
    phrase = head_phrase(question)
    pairs = [phrase[i:i + 2] for i in range(len(phrase) - 1) if kind_of_phrase(phrase[i:i + 2]) == expected.kind
             and kind_of_phrase(phrase[i:i + 1]) != expected.kind and kind_of_phrase(phrase[i + 1:i + 2]) !=
             expected.kind]
    words = [w for w in phrase if kind_of_phrase([w]) == expected.kind] + [w for pair in pairs for w in pair]
    return frozenset(stems(" ".join(words)))


def _by_amount(units: list[Unit], question: str) -> list[Unit]:
    """Units marked by the amounts the question gives.

    A range holds them, or is about other amounts; a chunk's catch-all case ('All other purchase orders...') holds
    them when one of the chunk's ranges leaves them out.
    """
    marked = [replace(u, holds=tuple(held)) if (held := held_values(u.plain, question)) else
              replace(u, out_of_range=True) if excludes(u.plain, question) else u for u in units]
    given = tuple(written for written, _, _ in amounts(question))
    by_chunk: dict[str, list[Unit]] = {}
    for unit in marked:
        by_chunk.setdefault(unit.evidence.chunk_id, []).append(unit)
    left_out = {chunk for chunk, held in by_chunk.items() if any(u.out_of_range for u in held)}
    return [replace(u, holds=given) if u.evidence.chunk_id in left_out and catch_all(u.plain) else u for u in marked]


def _by_band(units: list[Unit], given: list[Quantity]) -> list[Unit]:
    """Units marked by the counts and durations the question gives.

    A band holds them ('2 years up to 5 years' for three years), or the unit's bands are about others ('More than
    5 years').
    """
    marked = []
    for unit in units:
        held, outside = banded(unit.plain, given)
        marked.append(replace(unit, holds=(*unit.holds, *held)) if held else
                      replace(unit, out_of_range=True) if outside else unit)
    return marked


CLIPPED = 4
"""The shortest word read as a clipping of a longer one ('admin' of 'administrator', 'info' of 'information')."""


def _by_clipping(units: list[Unit], weights: dict[str, float], question: str) -> list[Unit]:
    """Units marked as stating a clipped word of the question that no unit writes whole but some write in full.

    'local admin rights' is said by 'local administrator rights'. Names are not clipped ('Carl' is not 'Carlos').
    """
    named = set().union(*(stems(e) for e in entities(question)))
    clipped = [k for k in weights if len(k) >= CLIPPED and k.isalpha() and k not in named
               and not any(k in u.stems for u in units)]
    if not clipped:
        return units
    marked = []
    for unit in units:
        said = [k for k in clipped if any(s.startswith(k) and len(s) > len(k) + 1 for s in unit.stems)]
        marked.append(replace(unit, holds=(*unit.holds, *said)) if said else unit)
    return marked


def read(question: str, expected: Expected, units: list[Unit], rank_of: dict[str, int],
         weights: dict[str, float] | None = None) -> list[Reading]:
    """Every non-heading unit scored for the question, best first."""
    weights = weights if weights is not None else term_weights(question, units)
    if amounts(question):
        units = _by_amount(units, question)
    units = by_heading_year(units, question)  # 'Table 1 - Treatment works, 2023' is about another year than 2024
    # a yes/no question reads limits by fits()
    if expected.kind != "yes_no" and (counted := quantities(question, bounds=True)):
        units = _by_band(units, counted)
    units = _by_clipping(units, weights, question)
    given = [question[s:e].lower() for kind in GIVEN_KINDS for s, e in finditer(kind, question)]
    named = supplied_words(question, expected)
    question_stems = set(weights)
    head = stem(expected.head) if expected.head else ""
    verb, doer = asked_verb(question), doer_verb(question)
    rate = rate_of(question, 0, len(question)) if expected.kind in ("amount", "number") else ""
    readings: list[Reading] = []
    for unit in within(units):  # the step's deadline: the units read so far
        if unit.is_heading or not (unit.stems - question_stems):
            continue
        guess = best(unit, expected, question) if expected.wants_value else None
        answer, cell_fit = (guess.text, guess.cell_fit) if guess else (None, 0.0)
        fit = 0.05 / (1 + rank_of.get(unit.evidence.chunk_id, 0))
        if head and head in unit.stems:
            fit += HEAD_BONUS
        if guess and guess.headed and expected.head in ASKS_BOUND:  # 'within 30 days' for 'how long do I have to'
            fit += BOUND_BONUS
        elif guess and guess.headed and not unit.superseded:  # 'Pay day is the 27th' for 'what day ... paid'
            fit += HEADED_FIT
        if verb and verb in unit.stems:
            fit += VERB_BONUS
        if guess and guess.aligned:
            fit += ALIGNED_FIT
        names_doer = bool(doer) and any(doer in stems(cell.header) for cell in unit.cells if cell.header)
        if names_doer:
            fit += DOER_BONUS  # 'Approver: Financial Controller' for 'the person who has to approve'
        if guess and expected.kind == "amount" and guess.kind == "number":
            fit -= COUNT_FOR_AMOUNT_PENALTY  # 'Staff spaces: 410' for 'what's the fine': a count, not money
        if guess and rate and (stated := rate_of(unit.plain, guess.start, len(guess.text))):
            fit += RATE_BONUS if stated == rate else -RATE_PENALTY  # 'EUR 50' a day is no allowance per hour
        if expected.kind in TYPED_KINDS or expected.kind in ("person", "place", "name"):
            strict = expected.kind in TYPED_KINDS
            fit += FOUND_BONUS * (1 + cell_fit) if answer else -(MISSING_PENALTY if strict else MISSING_PENALTY / 3)
        if expected.kind == "person" and answer and " " not in answer and expected.head not in _MONONYMS:
            fit -= ONE_WORD_PENALTY  # 'Moneyball', 'Five': a person asked for is named in full
        if unit.superseded:
            fit -= SUPERSEDED_PENALTY
        if unit.out_of_range:
            fit -= OUT_OF_RANGE_PENALTY
        states = bool(unit.holds) or any(value in unit.plain.lower() for value in given)
        supplied = named if answer else frozenset()
        readings.append(Reading(unit, coverage([unit], weights, supplied), fit, answer, states, supplied,
                                min(guess.distance, 1.0) if guess else 1.0, names_doer))
    return sorted(readings, key=lambda r: -r.score)
