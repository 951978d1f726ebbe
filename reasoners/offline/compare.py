"""Questions about two or more named things: pick between them, compare their values, or say yes or no.

- A choice ('Which is older, X or Y?', 'Is X or Y the genus of more species?') reads the best unit about each option
  and compares their dates or numbers in the asked direction; without a direction, the option whose unit says more
  of the question wins.
- A comparison ('the stipend in Lisbon versus Toronto') answers with each side's value.
- Yes or no: yes when the best unit about each named thing says what the question asks of it, without a negation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from boundloop.domain.text import stems, values
from boundloop.reasoners.offline.answerability import ANTONYMS
from boundloop.reasoners.offline.clock import ASKS_TIME, clock_value, compared_noun, timed
from boundloop.reasoners.offline.labelled import labelled_figure
from boundloop.reasoners.offline.limits import Limit, deciding_limit, limiting
from boundloop.reasoners.offline.quantities import unstated
from boundloop.reasoners.offline.ranges import otherwise
from boundloop.reasoners.offline.reading import Reading, coverage
from boundloop.reasoners.offline.spans import spans
from boundloop.reasoners.offline.units import chunk_ordinal

T = TypeVar("T")
_EARLY = re.compile(r"\b(older|oldest|first|earlier|earliest|before|sooner|longer ago|established)\b", re.I)
_LATE = re.compile(r"\b(younger|youngest|newer|newest|later|latest|recent(ly)?|last|more recently)\b", re.I)
_MORE = re.compile(r"\b(more|most|larger|largest|bigger|biggest|higher|highest|longer|longest|taller|tallest|"
                   r"greater|greatest|further|farther|heavier|wider|deeper)\b", re.I)
_LESS = re.compile(r"\b(fewer|fewest|less|least|smaller|smallest|lower|lowest|shorter|shortest|lighter|"
                   r"narrower|cheaper)\b", re.I)
_NEGATION = re.compile(r"\b(not|no|never|cannot|can't|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|"
                       r"neither|nor|none|without|only)\b", re.I)
_IDIOMS = re.compile(r"\b(?:at no (?:extra |additional )?(?:cost|charge)|no (?:cost|charge) to you|free of charge|"
                     r"no (?:later|sooner|less|fewer) than|not only|no matter)\b", re.I)
"""Phrases with a 'no' or 'not' that deny nothing ('issued at no cost', 'no later than Friday')."""
_YEAR = re.compile(r"\b(1[0-9]\d\d|20\d\d)\b")
AGREE = 0.5
"""A unit says what a yes/no question asks of a thing when it covers this share of the rest of the question."""


def about(option: str, readings: list[Reading], headed: bool = False) -> list[Reading]:
    """The units about `option`: it stands in the unit or its document's title.

    `headed`: or in the heading or lead-in the unit stands under ('## Vienna office' over a list of holidays), for the
    sides of 'both X and Y' that are sections of one document.
    """
    own = stems(option)
    if not own:
        return []
    need = max(1, (len(own) + 1) // 2)
    return [r for r in readings
            if len(own & (r.unit.stems | (r.unit.context_stems if headed else stems(r.unit.evidence.title)))) >= need]


def _first_year(reading: Reading) -> int | None:
    found = _YEAR.findall(reading.unit.plain)
    return int(found[0]) if found else None


def _first_number(reading: Reading, question: str) -> float | None:
    asked = set(values(question))
    for value in spans("number", reading.unit.plain):
        digits = re.sub(r"[^\d.]", "", value.split()[0] if value.split() else value)
        if digits and value not in asked and not _YEAR.fullmatch(digits):
            try:
                return float(digits)
            except ValueError:
                continue
    return None


def own_document(option: str, reading: Reading) -> bool:
    """Whether the unit's document is about `option`: its title is the option's name."""
    own, title = stems(option), stems(reading.unit.evidence.title)
    return bool(own) and (own <= title or bool(title) and title <= own)


def stating(option: str, readings: list[Reading], value: Callable[[Reading], T | None]) -> tuple[T, Reading] | None:
    """The value the best unit about `option` that states one gives, with that unit.

    The option's own document speaks for it first, its earliest unit first ('X is a 1996 film'); a unit elsewhere
    that only mentions the option ('the subject of the movie X') gives no date of its own.
    """
    found = [(v, r) for r in about(option, readings) if (v := value(r)) is not None]
    if not found:
        return None
    return min(found, key=lambda pair: (not own_document(option, pair[1]),
                                          chunk_ordinal(pair[1].unit.evidence.chunk_id) or 0,
                                          pair[1].unit.position, -pair[1].coverage))


_FULL_NAME = re.compile(r"^\s*((?:[A-Z][\w'’.-]*\s+){1,5}[A-Z][\w'’-]*)\s*(?:\([^)]*\)\s*)?,?\s*(?:is|was)\b")


def full_name(option: str, readings: list[Reading]) -> str:
    """A person's name as their own document writes it first, else the option as asked.

    'Florence Welch' is 'Florence Leontine Mary Welch (born 1986) is ...': the written name must hold the first and
    last words of the one asked about.
    """
    words = option.split()
    if len(words) < 2 or not re.fullmatch(r"[A-Z][\w'’.-]*", words[0]) or not words[-1][:1].isupper():
        return option
    for reading in about(option, readings):
        if not own_document(option, reading):
            continue
        match = _FULL_NAME.match(reading.unit.plain)
        if match:
            written = match.group(1).split()
            while len(written) > 2 and written[0].endswith(".") and written[0] != words[0]:
                written.pop(0)  # 'Prof. Dr. Ernst Willi Messerschmid': titles are no part of the name
            if written[0] == words[0] and written[-1] == words[-1] and written != words:
                return " ".join(written)
    return option


def choose(question: str, options: tuple[str, ...], readings: list[Reading], weights: dict[str, float],
           stated: list[Reading] | None = None) -> tuple[str, list[Reading]] | None:
    """The option the evidence supports, and the unit read for each option (best first per option).

    `stated`: the units a date is read from when `readings` do not date every option (all the evidence's units, not
    only the relevant): 'Prof. Dr. Ernst Willi Messerschmid (born May 21, 1945) is a German physicist' dates him for
    'which scientist is older', though it says little of the question.
    """
    stated = readings if stated is None else stated
    rest = {k: w for k, w in weights.items() if not any(k in stems(o) for o in options)}
    best: dict[str, Reading] = {}
    for option in options:
        found = about(option, readings)
        if found:  # its own document's units first: 'California Polytechnic ...' is not about the Philippines' one
            best[option] = max(found, key=lambda r: (own_document(option, r),
                                                     coverage([r.unit], rest) if rest else r.coverage))
    if not best:
        return None
    units = [best[o] for o in options if o in best]
    early, late = _EARLY.search(question), _LATE.search(question)
    more, less = _MORE.search(question), _LESS.search(question)
    if (early or late) and ASKS_TIME.search(question):  # 'which office opens earlier': their hours, compared
        at = clock_value(question)
        clocked = {o: said for o in options if (said := _timed(question, o, stated, rest, at))}
        if len(clocked) == len(options):
            pick = min if early and not late else max
            return pick(options, key=lambda o: clocked[o][0]), [clocked[o][1] for o in options]
    if early or late:
        dated = {o: said for o in options if (said := stating(o, readings, _first_year))}
        if len(dated) < len(options):
            dated = {o: said for o in options if (said := stating(o, stated, _first_year))}
        if len(dated) == len(options):
            pick = min if early and not late else max
            return pick(options, key=lambda o: dated[o][0]), [dated[o][1] for o in options]
    if more or less:  # 'Rotterdam 29.1', 'Bergen 24.8' under 'Productivity (GCR)': the figures their names label
        labelled = {o: told for o in options if (told := labelled_figure(o, stated, rest))}
        if len(labelled) == len(options):
            pick = max if more and not less else min
            return pick(options, key=lambda o: labelled[o][0]), [labelled[o][1] for o in options]
    if (more or less) and len(best) == len(options):
        number_of = partial(_first_number, question=question)
        counted = {o: told for o in options if (told := stating(o, readings, number_of))}
        if len(counted) == len(options):
            pick = max if more and not less else min
            return pick(options, key=lambda o: counted[o][0]), [counted[o][1] for o in options]
    if (excluded := _excluding(question, options, best)) is not None:
        return excluded, units
    scored = {o: coverage([r.unit], rest) if rest else r.coverage for o, r in best.items()}
    return max(scored, key=lambda o: scored[o]), units


def _timed(question: str, option: str, readings: list[Reading], rest: dict[str, float],
           at: Callable[[Reading], int | None]) -> tuple[int, Reading] | None:
    """The time of day the option's own document gives for what is asked, else another unit about it."""
    units, noun = about(option, readings), compared_noun(question)
    return timed([r for r in units if own_document(option, r)], rest, at, noun) or timed(units, rest, at, noun)


_OUTSIDE = re.compile(r"\b(?:outside(?: of)?|not (?:in|from|of|located in|based in)|other than|apart from)\s+"
                      r"(?:the\s+)?([^,?;]+)", re.I)


def _excluding(question: str, options: tuple[str, ...], best: dict[str, Reading]) -> str | None:
    """The option whose unit does not state what the question excludes, when the other's does; None otherwise.

    'Which breed has origins outside of the United States, X or Y?': the breed whose unit does not say United States.
    """
    match = _OUTSIDE.search(question)
    if match is None or len(options) != 2 or len(best) != 2:
        return None
    excluded = stems(match.group(1)) - {k for o in options for k in stems(o)}
    holding = [o for o in options if excluded and excluded <= best[o].unit.stems]
    return next(o for o in options if o not in holding) if len(holding) == 1 else None


def _opposed(unit_stems: frozenset[str], question: str) -> set[str]:
    """The question's words whose opposite the unit states instead ('closed', 'closure' for 'open')."""
    prefixes = {k[:4] for k in unit_stems}
    return {k for k in stems(question) if k not in unit_stems and
            any(o[:4] in prefixes for o in ANTONYMS.get(k, set()))}


_SPELLED = re.compile(r"\b([A-Z]{2,5}) \(([^)]+)\)")
"""An acronym with the spelling the evidence gives it, as the read question holds it: 'SFC (site finance
controller)'."""


def spelled_out(weights: dict[str, float], question: str, text: str) -> dict[str, float]:
    """The weights without the words of an acronym's spelling when `text` states the acronym itself.

    'if my SFC approves it' is stated by 'your SFC has approved it': the spelling is not missing from it.
    """
    said = {k for acronym, spelling in _SPELLED.findall(question) if re.search(rf"\b{acronym}\b", text)
            for k in stems(spelling)}
    return {k: w for k, w in weights.items() if k not in said} if said else weights


def yes_or_no(question: str, entities: list[str], readings: list[Reading], weights: dict[str, float]
              ) -> tuple[str, list[Reading]] | None:
    """'yes' when every named thing's best unit says the rest of the question without a negation, else 'no'."""
    # 'Terence Fisher and Leopoldo Torre Nilsson' is two named things
    named = [part for e in entities for part in re.split(r"\s+and\s+", e) if stems(part)] or [""]
    rest = {k: w for k, w in weights.items() if not any(k in stems(e) for e in named)}
    units: list[Reading] = []
    limits: list[Limit] = []

    def said_of(r: Reading) -> float:
        return coverage([r.unit], rest) if rest else r.coverage
    agree = True
    # a unit about every named thing answers for them all ('Good Friday is not a closure day in Tilburg')
    sides = [{id(r) for r in about(e, readings)} for e in named] if len(named) > 1 else []
    joint = [r for r in readings if all(id(r) in side for side in sides)] if sides else []
    for entity in [""] if joint else named:
        found = joint or (about(entity, readings) if entity else readings)
        if not found and entity:  # 'a hotel night in Leeds' against 'London: £150; anywhere else in the UK: £95'
            found = [r for r in readings if otherwise(r.unit.plain)]
        if not found:
            return None
        best = limiting(question, found, max(found, key=said_of), said_of)
        units.append(best)
        stated = spelled_out(rest, question, best.unit.plain)
        said = coverage([best.unit], stated) if rest else best.coverage
        negation = bool(_NEGATION.search(_IDIOMS.sub(" ", best.unit.plain))) and not _NEGATION.search(question)
        opposed = _opposed(best.unit.stems, question)
        # 'closed' answers 'open?' with no; 'not a closure day' with yes: a denied opposite agrees
        negated = negation != bool(opposed)
        if opposed:  # the opposite word stands for the question's word: it need not be stated
            said = coverage([best.unit], {k: w for k, w in (stated or weights).items() if k not in opposed})
        # a limit on a figure the question gives decides ('no more than 6 visitors' for eight: no; for four: yes;
        # 'the maximum for a hotel is £150 per night' for £140: yes; 'Limit: 5 km/h' for 8 km/h: no)
        if (limit := deciding_limit(question, best.unit)) is not None:
            negated = not limit.within  # the limit stands for the figure the question gives: it need not be stated
            said = coverage([best.unit], {k: w for k, w in unstated(stated or weights, question).items()
                                          if not k.replace(".", "").isdigit()})
            limits.append(limit)
        # a rule for other amounts ('above EUR 5,000 need three quotes' for EUR 3,000) does not say yes
        agree = agree and said >= AGREE and not negated and not best.unit.out_of_range
    return _verdict(agree, limits, len(units)), units


def _verdict(agree: bool, limits: list[Limit], sides: int) -> str:
    """'yes' or 'no', with the limit that decided it when one did ('No: the limit for Rotterdam is €165').

    A 'no' names the first limit the question's figure fails; a 'yes' a limit only when every side had one.
    """
    if not agree and (failed := next((limit for limit in limits if not limit.within), None)):
        return failed.answer()
    if agree and limits and len(limits) == sides:
        return limits[0].answer()
    return "yes" if agree else "no"


def sides(entities: list[str], readings: list[Reading]) -> list[Reading]:
    """For a comparison, the best answering unit about each compared thing (at most three)."""
    chosen: list[Reading] = []
    for entity in entities[:3]:
        found = [r for r in about(entity, readings) if r.answer is not None]
        if found:
            best = max(found, key=lambda r: r.score)
            if best not in chosen:
                chosen.append(best)
    return chosen
