"""Chains: answers that take several documents, read as one ('the room of the person who approves X').

The value asked for stands in a unit about someone or something the question does not name ('Name: Priya Raman;
Role: Head of Finance; Room: 3.12'); an earlier unit names that link ('Above EUR 5,000: the Head of Finance'),
perhaps through a third ('Travel & Events Coordinator: Nadia Petrova'). A unit links to the next when it mentions
a name the next one states: a name of two words or more, or a rarer single name ('Belém', 'Tidewater') that the
question does not state. A chain is scored by what all its units cover together, plus the last unit's fit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from boundloop.domain.names import TITLE_PARTS
from boundloop.domain.text import entities, name_spans, stems
from boundloop.policies.deadline import within
from boundloop.reasoners.offline.places import name_key, places, same_place
from boundloop.reasoners.offline.reading import DOER_BONUS, Reading, coverage
from boundloop.reasoners.offline.reading import OUT_OF_RANGE_PENALTY as NOT_APPLYING_PENALTY
from boundloop.reasoners.offline.unit_names import (
    named_again,
    names_of,
    pointed_cells,
    subjects_of,
    titled,
)
from boundloop.reasoners.offline.verbs import doer_lead, doer_verb
from boundloop.reasoners.offline.vocabulary import words

MAX_LINKS = 2
"""At most three units in a chain (the loop's budget allows three hops)."""
MIN_GAIN = 0.1
"""A chain must cover this much more of the question than its last unit alone."""
RARE = 3
"""A single-word name links only if at most this many units mention it."""
CANDIDATES = 40
"""Only the best-covering units start or continue chains."""
_NOT_HEADS = words("not_chain_heads")
_PRONOUN = re.compile(r"^(she|he|her|his|it|its|they|their|this|these)\b", re.I)


@dataclass(frozen=True)
class Chain:
    """Units read together, earliest first; the last holds the answer."""

    readings: tuple[Reading, ...]
    coverage: float
    led: bool = False
    """Whether a link is the name the question's verb leads into ('approved in writing by the Regional Operations
    Lead' for 'who has to approve ...'), rather than another name the same passage gives ('the Station Manager')."""

    @property
    def last(self) -> Reading:
        return self.readings[-1]

    @property
    def score(self) -> float:
        """What its units cover together and the last unit's fit, less a penalty per earlier unit not applying.

        An earlier unit does not apply when it is superseded or a row about other amounts: a chain through it answers
        another case. One naming the doer of the question's verb ('Approver: Financial Controller') leads to whom the
        question asks about.
        """
        return self.coverage + self.last.fit - NOT_APPLYING_PENALTY * sum(not r.applies for r in self.readings[:-1]) \
            + DOER_BONUS * (self.led or any(r.doer for r in self.readings[:-1]))

    @property
    def answer(self) -> str | None:
        return self.last.answer


class _Names:
    """Which names each unit points to, and which names say what each unit is about (its subjects)."""

    def __init__(self, readings: list[Reading], question: str) -> None:
        self.asked = {name_key(n) for n in name_spans(question)} | {name_key(question)}
        self.mentioned = {id(r): names_of(r.unit.plain) | pointed_cells(r) for r in readings}
        self.words = {id(r): f" {name_key(r.unit.plain)} " for r in readings}
        self._linking: dict[int, set[str]] = {}
        self._subjects = {id(r): subjects_of(r) for r in readings}
        by_place = {(r.unit.evidence.chunk_id, r.unit.position): r for r in readings}
        self.follows: dict[int, Reading] = {}
        """A unit that goes on about the one before it in its chunk ('Jonas sits in 4.17' after '... Jonas Weber')."""
        self.before: dict[int, set[str]] = {}
        for r in readings:
            previous = by_place.get((r.unit.evidence.chunk_id, r.unit.position - 1))
            if previous is None:
                continue
            if _PRONOUN.match(r.unit.plain):
                self.before[id(r)] = self._subjects[id(previous)]
            elif named := named_again(r.unit.plain, names_of(previous.unit.plain)):
                self.before[id(r)] = named
                self.follows[id(r)] = previous
        counts: dict[str, int] = {}
        for names in self.mentioned.values():
            for name in names:
                counts[name] = counts.get(name, 0) + 1
        self.counts = counts

    def subjects(self, reading: Reading) -> set[str]:
        """The names a unit opens with or labels (its document's title aside)."""
        return self._subjects[id(reading)]

    def linking(self, reading: Reading) -> set[str]:
        """The names a unit may link by, which the question does not state.

        Names of two words or more, rare single names, and the first word of a longer name when it is a name itself
        ('Belém' of 'Belém auditorium').
        """
        if id(reading) not in self._linking:
            names = {n for n in self.mentioned[id(reading)]
                     if n not in self.asked and not n[:1].isdigit()}
            heads = {n.split()[0] for n in names
                     if " " in n and n.split()[0] not in _NOT_HEADS and len(n.split()[0]) > 3}
            self._linking[id(reading)] = {n for n in names | heads if n not in self.asked and (
                " " in n or self.counts.get(n, 0) <= RARE or n in heads)}
        return self._linking[id(reading)]

    def stated(self, reading: Reading) -> set[str]:
        """What a unit is about: its subjects and its document's title (and the title's subject part).

        A unit that opens with 'she', 'her' or 'it' is about the subject of the sentence before it.
        """
        return self._subjects[id(reading)] | titled(reading.unit.evidence.title) | self.before.get(
            id(reading), set())

    def mentions(self, reading: Reading, key: str) -> bool:
        """Whether a unit names `key` (a title's subject of two words or more) in its words, or by a name within it.

        'listed on the IT on-call rota' names the 'IT On-Call Rota - March to April 2026'; 'through the Contract Desk'
        names the 'Legal Contract Desk - How to Get a Contract Reviewed'.
        """
        if f" {key} " in self.words[id(reading)]:
            return True
        return any(" " in n and f" {n} " in f" {key} " for n in self.linking(reading))


@dataclass
class _Index:
    readings: list[Reading]
    names: _Names

    @cached_property
    def by_name(self) -> dict[str, list[Reading]]:
        """Units by each name they state, for finding what links to a unit."""
        index: dict[str, list[Reading]] = {}
        for r in self.readings:
            for name in self.names.linking(r):
                index.setdefault(name, []).append(r)
        return index

    def into(self, target: Reading) -> list[Reading]:
        """Units of other documents that mention a name `target` states, or the subject of its title."""
        found: dict[int, Reading] = {}
        doc = target.unit.evidence.doc_id
        for name in sorted(self.names.stated(target)):
            for r in self.by_name.get(name, []):
                if r.unit.evidence.doc_id != doc:
                    found[id(r)] = r
        for key in sorted(self.subjects(target.unit.evidence.title)):
            for r in self.readings:
                if r.unit.evidence.doc_id != doc and id(r) not in found and self.names.mentions(r, key):
                    found[id(r)] = r
        parts = [part for part in TITLE_PARTS.split(target.unit.evidence.title) if part.strip()]
        for r in self.readings:  # 'Site: Glasgow' in a directory row leads to the 'Glasgow Office' page
            if r.unit.evidence.doc_id != doc and id(r) not in found and any(
                    same_place(place, part) for place in places(r) for part in parts):
                found[id(r)] = r
        if (previous := self.names.follows.get(id(target))) is not None:
            found[id(previous)] = previous
        return list(found.values())

    def subjects(self, title: str) -> set[str]:
        """The keys of a title of two words or more, by which a unit may name the document in its words."""
        return {key for key in titled(title) if " " in key and key not in self.names.asked}


def chains(readings: list[Reading], question: str, weights: dict[str, float]) -> list[Chain]:
    """The best chain ending at each answering unit (a unit alone when no chain covers enough more), best first."""
    top = sorted(readings, key=lambda r: -r.coverage)[:CANDIDATES]
    names = _Names(readings, question)
    index = _Index(top + _middles(readings, top, names), names)
    verb = doer_verb(question)
    found: list[Chain] = []
    for last in within(readings):  # the step's deadline: the chains found so far
        best = Chain((last,), last.coverage)
        if last.answer is not None or last in top:
            for chain in _extend((last,), index, MAX_LINKS):
                covered = coverage([r.unit for r in chain], weights, last.supplied)
                if covered >= best.coverage + MIN_GAIN and covered > best.coverage:
                    best = Chain(chain, covered, _led(chain, index.names, verb))
        found.append(best)
    named = frozenset(stem for name in entities(question, names_only=True) for stem in stems(name))
    found += _siblings(found, index, named, weights)
    return sorted(_nearest(found), key=lambda c: (-c.score, -len(named & c.last.unit.stems)))


def _place_page(row: Reading, page: Reading) -> bool:
    """Whether `page` is on the page of a place `row` gives ('Site: Harwell WTW' and 'Site Guide — Harwell ...')."""
    parts = [part for part in TITLE_PARTS.split(page.unit.evidence.title) if part.strip()]
    return any(same_place(place, part) for place in places(row) for part in parts)


def _nearest(found: list[Chain]) -> list[Chain]:
    """The chains that do not read on past a place's page where a shorter chain from the same row finds its answer.

    'Site: Harwell WTW' leads to the Harwell page and its address; that page's 'monitored from Quay House' does not
    lead on to Quay House's address.
    """
    answered = {(id(c.readings[0]), c.last.unit.evidence.doc_id) for c in found
                if len(c.readings) == 2 and c.last.answer is not None and _place_page(c.readings[0], c.last)}
    return [c for c in found if len(c.readings) < 3 or
            (id(c.readings[0]), c.readings[1].unit.evidence.doc_id) not in answered]


def _led(chain: tuple[Reading, ...], names: _Names, verb: str) -> bool:
    """Whether a unit of the chain links to the next by the name its verb leads into ('approved ... by X')."""
    lead = doer_lead(verb)
    if lead is None:
        return False
    for earlier, later in zip(chain, chain[1:], strict=False):
        words = names.words[id(earlier)]
        ends = {m.end() for m in lead.finditer(words)}
        for name in names.linking(earlier) & names.stated(later):
            if any(words.startswith(f"{name} ", end) for end in ends):
                return True
    return False


def _middles(readings: list[Reading], top: list[Reading], names: _Names) -> list[Reading]:
    """Units about a name the best-covering units point to, however little of the question they cover.

    The middle of a chain shares no word with the question: 'approved by the Head of People' leads to the org chart's
    'Head of People — Marta Saraiva', which leads to her directory row; only the first and last units cover it.
    """
    # names of two words or more: a lone word ('CVHT' of 'CVHT-Secure') links any glossary row to anything
    pointed = {n for r in top for n in names.linking(r) if " " in n}
    chosen = {id(r) for r in top}
    return [r for r in readings if id(r) not in chosen and names.subjects(r) & pointed][:CANDIDATES]


def _siblings(found: list[Chain], index: _Index, named: frozenset[str], weights: dict[str, float]) -> list[Chain]:
    """Each chain again, ending at a sibling of its last unit that states more of the question's names.

    'At Northgate and at Ellerby, overtime is approved by the Site Manager' leads to every Site Manager's row; the
    Northgate row, which the question names, covers little more alone than with the rule, so its own chain fell short
    of the gain a chain must make.
    """
    extra = []
    for chain in found:
        if len(chain.readings) < 2 or not named:
            continue
        *prefix, last = chain.readings
        for other in index.readings:
            if other.answer is None or other in chain.readings or \
                    len(named & other.unit.stems) <= len(named & last.unit.stems):
                continue
            if any(r is prefix[-1] for r in index.into(other)):
                covered = coverage([r.unit for r in (*prefix, other)], weights, other.supplied)
                if covered >= chain.coverage:
                    extra.append(Chain((*prefix, other), covered))
    return extra


def _extend(chain: tuple[Reading, ...], index: _Index, links: int) -> list[tuple[Reading, ...]]:
    """Every chain that ends with `chain`, with up to `links` more units in front of it."""
    if links == 0:
        return []
    docs = {r.unit.evidence.doc_id for r in chain}
    longer = []
    for earlier in index.into(chain[0]):
        if earlier.unit.evidence.doc_id in docs and index.names.follows.get(id(chain[0])) is not earlier:
            continue
        grown = (earlier, *chain)
        longer.append(grown)
        longer.extend(_extend(grown, index, links - 1))
    return longer
