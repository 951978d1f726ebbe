"""Candidate short answers in a unit: the values of the expected kind it states that the question does not.

Each candidate keeps what says whether it is the value asked for: the rank of its kind among the kinds the question
wants, how well the table cell holding it names what is asked, how far it stands from the words the question
matched, and whether it is the subject a definitional sentence describes in the question's words. `best` picks one
by a fixed rule. A question asking a measure ('how wide', 'how long') takes only values given in its units.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boundloop.domain.text import calendar_words, stem, stems, values
from boundloop.domain.words import STOPWORDS
from boundloop.reasoners.offline.answer_types import Expected
from boundloop.reasoners.offline.cells import cell_fit, cell_offsets, identifier_column, literal
from boundloop.reasoners.offline.cloze import fills
from boundloop.reasoners.offline.joined import changed, ranges_of
from boundloop.reasoners.offline.measures import in_capital_unit, in_units, measure_units
from boundloop.reasoners.offline.name_roles import (
    after_by,
    aligned,
    alignments,
    as_place,
    blanked,
    head_named,
    introduced,
    role_title,
    unasked_nickname,
)
from boundloop.reasoners.offline.noun_values import labelled
from boundloop.reasoners.offline.ranges import amounts
from boundloop.reasoners.offline.ruled_out import acronym, asks_mobile, given_ranges, mobile_number, owner_stems
from boundloop.reasoners.offline.spans import finditer, has_year, year_in
from boundloop.reasoners.offline.stated import LITERAL_KINDS, stated_by_question
from boundloop.reasoners.offline.units import Unit, plain

SUBJECT_BONUS = 2.0
"""How much a definitional sentence's subject is preferred, times the share of the question its description says."""

KINDS: dict[str, tuple[str, ...]] = {
    "amount": ("amount", "number"), "number": ("number", "amount"), "date": ("date", "time"), "time": ("time",),
    "phone": ("phone",), "email": ("email",), "url": ("url", "email"), "room": ("room", "code"),
    "code": ("code", "emphasis"), "postcode": ("postcode",), "address": ("address",),
    "person": ("name",), "place": ("name", "room", "locative"),
    "name": ("emphasis", "code", "name"), "other": ("emphasis", "name"), "list": ("emphasis", "name"),
}
"""The span kinds that can answer each expected kind, likeliest first."""
_OTHER_FORMS = ("date", "time", "phone", "code", "url", "room")
_SPELLED_COUNT = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
                            r"forty|fifty|hundred)\s+([A-Za-z]+)\b", re.I)
_CLAUSE_NUMBER = re.compile(r"\d+(?:\.\d+)+\s(?=[A-Z])")
"""The number a numbered clause opens with ('3.4 Overtime rates ...'): no value it states."""
_NOT_NAMES = ("date", "time", "amount")
"""Forms a name candidate must not start inside ('EUR 50' is not a name)."""
_DEFINITION = re.compile(r"\s*(?:\([^)]*\)\s*|,[^,]{0,60},\s*)?(?:is|was|are|were|has been|had been)\s+(?:a|an|the)?\b")
HEADED_BONUS = 0.8
"""How much a value the asked-for noun stands beside is preferred ('which album' -> 'the album "X"'). Above two kinds'
rank, so that 'a production company, Tall Grass Films,' outranks the quoted films the company made ('which company').
0.5 lost that; 0.8 and 1.0 measured alike on HotpotQA dev and the probes."""
LED_BONUS, ALIGNED_BONUS, AGENT_PENALTY, YEARLESS_PENALTY, ROLE_PENALTY = 0.1, 1.0, 0.5, 0.1, 0.5
"""The rule score's weights for the fields of those names below; the last, how much less a date without its year says
for 'when' ('31 July' beside '20 July 1981'), is a tie-breaker."""
_VALUE_KINDS = frozenset({"time", "date", "amount", "number", "phone", "email", "url", "room", "code", "postcode"})
"""Kinds a sentence often gives two of, one per verb ('opens at 07:30 and closes at 19:00')."""
CELL_RANK = 3
"""The kind rank of a whole cell offered as the answer (after every span kind)."""
_UPPER = re.compile(r"\b(?:up to|at most|no more than|not more than|(?:not|never) (?:to )?exceed|a maximum of|"
                    r"maximum of|max\.?|maximum|capped at|limited to|no longer than|within)\s*$", re.I)
_LOWER = re.compile(r"\b(?:at least|no less than|not less than|a minimum of|minimum of|min\.?|minimum|no sooner than|"
                    r"from)\s*$", re.I)
ASKS_BOUND = {"deadline": _UPPER, "most": _UPPER, "max": _UPPER, "maximum": _UPPER, "longest": _UPPER,
              "furthest": _UPPER, "farthest": _UPPER, "least": _LOWER, "min": _LOWER, "minimum": _LOWER,
              "shortest": _LOWER}
"""A question asking for a bound ('the most a director can approve', 'the minimum notice') is answered by the value
a bound of that side leads into ('may not exceed 10 hours'), not by one of the other side ('at least 3 hours')."""

@dataclass(frozen=True)
class Candidate:
    """One value a unit states that may be the short answer."""

    text: str
    start: int
    kind: str
    rank: int
    """Its kind's place among the kinds the question wants (0 likeliest); `CELL_RANK` for a whole cell."""
    cell_fit: float
    """How well the header of the cell holding it names what is asked (0 to 1; 0 outside tables)."""
    distance: float
    """Characters to the nearest word the question matched, over the unit's length (at least 40)."""
    subject: float
    """For the subject of a definitional sentence, the share of the question its description says; else 0."""
    headed: bool = False
    """The noun the question asks for stands right beside it ('the album "X"', 'X, a company')."""
    led: bool = False
    """A word of the question leads into it ('closes at 19:00' for 'when does it close'), after any value of its
    kind before it: of two times in 'opens at 07:30 and closes at 19:00', the question's verb picks one (typed
    values only)."""
    aligned: bool = False
    """A name standing where the question's own words put the answer: after 'developed by' for 'developed by which
    company'."""
    agent: bool = False
    """A name after 'by' ('written by David Brock') when the question asks for no person: it did what the question's
    thing was done by, so it is rarely that thing."""
    yearless: bool = False
    role: bool = False
    """A role's title ('Regional Operations Lead', 'Head of People') asked for a person: the holder's name, beside
    it in an org chart's 'Role — Name', answers better."""
    """A date without its year ('31 July') for 'when': a fuller date beside it ('20 July 1981') says more."""

    @property
    def rule_score(self) -> float:
        return (2.0 * self.cell_fit - 0.3 * self.rank - self.distance + SUBJECT_BONUS * self.subject
                + HEADED_BONUS * self.headed + LED_BONUS * self.led + ALIGNED_BONUS * self.aligned
                - AGENT_PENALTY * self.agent - YEARLESS_PENALTY * self.yearless - ROLE_PENALTY * self.role)


def anchors(text: str, question_stems: set[str]) -> list[int]:
    """Where the words the question matched start in the text."""
    return [m.start() for k in question_stems for m in re.finditer(rf"\b{re.escape(k)}", text, re.IGNORECASE)]


def candidates(unit: Unit, expected: Expected, question: str) -> list[Candidate]:
    """Every value of the expected kinds in `unit` that the question does not state, in reading order per kind.

    A whole cell is offered too when no span is found and its header names what a who/what question asks.
    """
    kinds = KINDS.get(expected.kind)
    if not kinds:
        return []
    question_stems, question_values = stems(question), set(values(question))
    text = plain(unit.text)
    near = anchors(text, question_stems)
    cells = cell_offsets(text, unit.cells)
    # a number that is part of a date, a time, a phone number or a code is not a count or an amount; a date is not
    # a name
    blocking = _OTHER_FORMS if expected.kind in ("number", "amount") else _NOT_NAMES if expected.kind in (
        "person", "place", "name", "other", "list") else ()
    taken = [range(s, e) for k in blocking for s, e in finditer(k, text)]
    if numbered := _CLAUSE_NUMBER.match(text):
        taken.append(range(0, numbered.end()))  # '3.4 Overtime rates are set out in ...': a clause's number
    if expected.kind in ("number", "amount"):
        taken += given_ranges(text, question_values)
        # a measure in its unit is no identifier ('E-mail FNOL: acknowledged within 4 working hours')
        asked = measure_units(question) if expected.kind == "number" else None
        taken += [range(s, e) for c, (s, e) in cells if identifier_column(c) and not (
            asked and any(asked.match(c.value[d.start():]) for d in re.finditer(r"(?<![\d.,])\d", c.value)))]
    # a count is not the figure of an amount ('quotes from three suppliers', not the 5,000 of 'above EUR 5,000')
    priced = [range(s, e) for s, e in finditer("amount", text)] if expected.kind == "number" else []
    conditioned = expected.kind == "number" and bool(amounts(question))
    measured = measure_units(question) if expected.kind == "number" else None
    mobile = expected.kind == "phone" and asks_mobile(question)
    counting = re.search(r"\bhow many\b(?!\s+(?:per ?cent|percentage))", question, re.I) is not None
    """A count asked under an amount ('quotes for a EUR 7,000 purchase'): the text's amounts are its conditions."""
    subject = _defined(text)
    lined = alignments(question)
    head = stem(expected.head) if expected.head else ""
    named_head = "" if expected.head == expected.kind else head  # "what time": "Times" is no nearer the answer
    names = list(finditer("name", text)) if head or "name" in kinds else []  # found once, read twice
    titled_names = head_named(text, head, names)
    around = blanked(text, titled_names)
    found: list[Candidate] = []
    previous: dict[str, int] = {}
    for rank, kind in enumerate(kinds):
        for start, end in names if kind == "name" else finditer(kind, text):
            span = text[start:end].strip(" ,;.")
            if not span or stated_by_question(span, kind, question, question_stems, question_values) or \
                    span.islower() and all(w in STOPWORDS for w in span.split()):
                continue  # a quoted 'or' names nothing
            if kind in ("number", "name") and any(start in r or end - 1 in r for r in taken):
                continue
            if kind == "number" and any(start in r for r in priced) or kind == "amount" and conditioned:
                continue
            if kind == "number" and counting and re.search(r"(?:%|per ?cent)$", span):
                continue  # 'how many days off': '150%' counts nothing
            if kind == "number" and not counting and (reading := in_capital_unit(text, start, end, span)):
                start, span = reading  # 'below 150 RLU' for 'what ATP reading': a reading in its unit
            if kind == "number" and measured:
                measure = in_units(measured, text, start, span, cells)  # '400 m', with its unit
                if measure is None:
                    continue  # 'how wide': '300 m3/s' and a bare '8' are no widths
                span = measure
            if kind == "emphasis" and unasked_nickname(text, start, end, question):
                continue  # '"Doug"' is part of 'Lyle Douglas "Doug" Basham'
            if expected.kind == "person" and (acronym(span) or calendar_words(span)):
                continue  # 'DA', 'CUO': an acronym names a thing or a role, never a person; 'Nov' is a month
            if expected.kind == "person" and " and " in span:  # the first of two ('King of Poland and Grand Duke')
                span = span.split(" and ")[0]
                if stated_by_question(span, kind, question, question_stems, question_values):
                    continue
            if kind == "date" and expected.head == "year" and (year := year_in(span)):
                start, span = start + span.index(year), year  # 'in what year': '1827' of 'March 1827'
            fit = max((cell_fit(c, expected, question_stems) for c, (s, e) in cells if s <= start < e), default=0.0)
            distance = _distance(start, near, text)
            if expected.kind == "place" and kind == "name":
                span = as_place(text, start, span)  # 'based in Hastings, Minnesota': the place with its region
            described = 0.0
            if subject and start == subject[0] and kind in ("name", "emphasis"):
                # 'Armin Meiwes (born 1961) is a German computer repair technician': the question describes him
                described = len(question_stems & stems(text[subject[1]:])) / max(len(question_stems), 1)
            bounded = ASKS_BOUND.get(expected.head)
            headed = bounded is not None and bool(bounded.search(text[max(0, start - 30):start])) or \
                bool(named_head) and named_head in stems(" ".join(
                    around[max(0, start - 30):start].split()[-3:] + around[start + len(span):start + len(span) + 25]
                    .split()[:2]))
            headed = headed or kind == "name" and start in titled_names or \
                subject is not None and described > 0 and head in stems(" ".join(text[subject[1]:].split()[:4]))
            led = kind in _VALUE_KINDS and bool(question_stems & stems(" ".join(
                text[previous.get(kind, 0):start].split()[-2:])))
            lined_up = kind in ("name", "emphasis") and aligned(lined, text, start, len(span))
            agent = kind in ("name", "emphasis") and expected.kind != "person" and not lined_up and \
                after_by(text, start)
            previous[kind] = start + len(span)
            yearless = kind == "date" and expected.kind == "date" and not has_year(span)
            role = expected.kind == "person" and kind in ("name", "emphasis") and role_title(span, text[:start])
            headed = headed or expected.kind == "person" and kind == "name" and not role and \
                introduced(text, start + len(span))  # 'Aisha Bello, Senior Claims Handler': a person, not the role
            found.append(Candidate(span, start, kind, rank, fit, distance, described, headed, led, lined_up, agent,
                                   yearless, role))
    found += [Candidate(text[s:e], s, "name", 0, 0.0, _distance(s, near, text), 0.0, True)  # 'self-directed ...'
              for s, e in fills(question, text)]
    found += [Candidate(value, s, "labelled", 0, max((cell_fit(c, expected, question_stems) for c, (a, e) in cells
                                                      if a <= s < e), default=0.0), _distance(s, near, text), 0.0, True)
              for s, value in labelled(text, expected.head, expected.kind) if value.lower() not in question.lower()]
    for kind in ("date", "time") if expected.kind in ("date", "time") else ():
        found = ranges_of(kind, found, text, question)
    found = changed(found, text)
    if expected.kind == "number":
        # a spelled count of the asked-for noun ('four sets of uniform' for 'how many sets') is offered beside the
        # digits; a spelled count of another noun the question names only when nothing else is found
        spelled = [c for c in _spelled_counts(text, question_stems, near)
                   if not measured or in_units(measured, text, c.start, c.text, cells) is not None]
        found += [c for c in spelled if not found or stem(c.text.split()[-1].lower()) == head]
    if expected.kind not in ("yes_no", "choice", "explanation", "list"):
        # a cell whose header names what is asked ('Location: Bergen' for 'where'), even when other spans were found
        spans_found = {c.text for c in found}
        named = question_stems - owner_stems(question, expected.head)
        found += [c for c in _cell_values(unit, expected, named, text) if c.text not in spans_found]
    if mobile:  # a desk's 'ext. 2201' is no mobile number
        found = [c for c in found if mobile_number(c.text)]
    return found


def _distance(start: int, near: list[int], text: str) -> float:
    """How far a value stands from the nearest word the question matched, over the text's length (40 at least)."""
    return min((abs(start - a) for a in near), default=len(text)) / max(len(text), 40)


def _spelled_counts(text: str, question_stems: set[str], near: list[int]) -> list[Candidate]:
    """Counts written as words that count something the question names ('three suppliers' for 'supplier quotes').

    A spelled count of anything else ('two projectors' for 'how many people') is not offered.
    """
    found = []
    for match in _SPELLED_COUNT.finditer(text):
        if stem(match.group(2).lower()) in question_stems:
            distance = _distance(match.start(), near, text)
            found.append(Candidate(match.group(0), match.start(), "number", 0, 0.0, distance, 0.0, True))
    return found


def best(unit: Unit, expected: Expected, question: str) -> Candidate | None:
    """The reader's first guess: the candidate the fixed rule scores highest."""
    return max(candidates(unit, expected, question), key=lambda c: c.rule_score, default=None)


def _defined(text: str) -> tuple[int, int] | None:
    """Where a definitional sentence's subject starts, and where its description starts ('X (...) is a ...')."""
    for start, end in finditer("name", text[:80]):
        if start > 4:
            break
        match = _DEFINITION.match(text, end)
        if match:
            return start, match.end()
    return None


_NOTE = re.compile(r"\s*\([^()]*\)\s*$")
"""A note in brackets after a cell's value ('2100 (from any Aurell phone, all stations)')."""


def _cell_values(unit: Unit, expected: Expected, question_stems: set[str], text: str) -> list[Candidate]:
    """Whole cells as the answer to a who/what question, when their header names what is asked."""
    found = []
    for cell in unit.cells:
        fit = cell_fit(cell, expected, question_stems)
        value = _NOTE.sub("", cell.value) or cell.value  # 'Extension: 2100 (from any phone)': the value, not its note
        if expected.kind in LITERAL_KINDS and not literal(value, expected.kind):
            continue  # 'Extension range: 5xxx' names no extension
        # a question of no known kind takes the cell of the column it names ('sunday enhancement for band 3?')
        if fit >= (0.6 if expected.kind == "other" else 0.8) and not stems(value) <= question_stems:
            found.append(Candidate(value, max(text.find(value), 0), "cell", CELL_RANK, fit, 0.0, 0.0))
    return found
