"""The missing link, named by reading: when no passage answers yet, who or what the best passages point to.

'Expense claims above EUR 5,000: approver, the Head of Finance' points to the Head of Finance; the next search
looks for that name with what the question asks of it ('Head of Finance room'). Names come from table cells whose
header names a role, owner or place, then from the names a passage mentions that the question does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from boundloop.domain.models import Evidence, Understanding
from boundloop.domain.names import normalise_name, title_keys
from boundloop.domain.text import entities, stems, values
from boundloop.reasoners.offline.answer_types import head_phrase
from boundloop.reasoners.offline.answerability import Similarity
from boundloop.reasoners.offline.chains import Chain
from boundloop.reasoners.offline.drafting import best_chains, evidence_units
from boundloop.reasoners.offline.extractive import synthesise
from boundloop.reasoners.offline.lists import unfinished
from boundloop.reasoners.offline.places import asks_a_place, places
from boundloop.reasoners.offline.reading import DOER_BONUS, Reading, read
from boundloop.reasoners.offline.spans import finditer
from boundloop.reasoners.offline.tallies import asks_tally, counted_noun, counted_rows, unheld
from boundloop.reasoners.offline.verbs import doer_lead, doer_verb

MAX_LINKS = 2
CHAINS_READ = 3
ON_TOPIC = 0.3
"""Below this coverage the evidence is not about the question, and no link it names is worth following."""
_POINTER_HEADERS = re.compile(
    r"\b(approver|owner|owned|lead|contact|responsible|manager|head|person|who|team|system|tool|room|host|venue|"
    r"location|desk|via|through|escalat\w*|sponsor|assignee|on[- ]call|provider|vendor|platform|name|site|office|"
    r"station|building|branch|base|store|depot|terminal|campus|school|plant|works)\b",
    re.IGNORECASE,
)
_ENTRY = re.compile(r":\s|\s[—–-]\s")
"""What ends an entry's label: 'Head of People — Marta Saraiva', 'Site manager: Owen Tranter'."""
_PERSONAL = re.compile(r"\b(?:who|whom|whose|whoever|person|someone|they|their|them|he|she|his|her)\b", re.I)
_ROLE = re.compile(r"\b(?:Officer|Manager|Director|Coordinator|Co-ordinator|Head|Lead|Supervisor|Administrator|"
                   r"Controller|Chief|Secretary|Advisor|Adviser|Partner|Engineer|Owner|Champion|Chair)\b")
_DATE_LIKE = re.compile(r"^(?:\d|January|February|March|April|May|June|July|August|September|October|November|"
                        r"December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)", re.IGNORECASE)


def names_in(reading: Reading, question: str) -> list[str]:
    """Names a unit points to that the question does not state.

    Cells whose header names a role, owner or place come first; then the names nearest the words the question
    matched ('reviewed by Legal through the Contract Desk' for a question about a contract review).
    """
    asked = stems(question)
    found: dict[str, None] = {}
    # the cell of the column the question names first ('Site: Caddon Marsh' for 'the site Fenella works from')
    for cell in sorted(reading.unit.cells, key=lambda c: not stems(c.header) & asked):
        if cell.header and _POINTER_HEADERS.search(cell.header) and not stems(cell.value) <= asked:
            found.setdefault(re.sub(r"^(the|a|an)\s+", "", cell.value.strip(" ."), flags=re.IGNORECASE), None)
    text = reading.unit.plain
    anchors = [m.start() for m in re.finditer(r"[\w'’-]+", text) if stems(m.group(0)) & asked]
    # asked about someone ('who approves it, and which room are they in?'), a role is the likelier link
    personal = bool(_PERSONAL.search(question))
    # the name the question's verb leads into ('approved in writing by the Regional Operations Lead') first
    lead = doer_lead(doer_verb(question))
    led = {m.end() for m in lead.finditer(text)} if lead else set()
    # a role's own entry ('Regional Operations Lead (ROL) — Tomás Figueiredo') leads on to its holder
    parts = _ENTRY.split(text, maxsplit=1)
    entry = len(parts) == 2 and len(parts[0].split()) <= 6 and bool(_ROLE.search(parts[0]))
    spans = [(s not in led, not (personal and bool(_ROLE.search(text[s:e])) != entry),
              min((abs(s - a) for a in anchors), default=0), -len(text[s:e].split()), text[s:e])
             for s, e in finditer("name", text)]
    for *_, span in sorted(spans):
        own = stems(span)
        if own and not own <= asked and not _DATE_LIKE.match(span) and not values(span) == [span]:
            found.setdefault(span, None)
    return list(found)


@dataclass(frozen=True)
class Lack:
    """What reading the evidence says is still missing."""

    answered: bool
    links: list[str] = field(default_factory=list)
    """Names to follow next: the best passages point to them."""
    asked_of: list[str] = field(default_factory=list)
    """The words of what is asked of them ('room', 'web address')."""
    unfinished: list[str] = field(default_factory=list)
    """Titles of documents whose list goes on beyond the passages held."""
    on_topic: bool = True
    """Whether the best passages cover enough of the question for a link to lead anywhere."""
    progress: bool = True
    """Whether the latest hop's passages are part of the best reading (following the last link led somewhere)."""


def cut_short(best: list[Chain], evidence: list[Evidence]) -> list[str]:
    """Titles of the best passages' documents whose held chunk ends on a lead-in, the next chunk not held.

    What a lead-in ('Rota (week starting Monday):') introduces is in the next chunk.
    """
    held = {e.chunk_id for e in evidence}
    titles: dict[str, None] = {}
    for chain in best:
        for reading in chain.readings:
            chunk = reading.unit.evidence
            doc, _, ordinal = chunk.chunk_id.rpartition("#")
            lines = [line for line in chunk.text.split("\n") if line.strip()]
            if lines and lines[-1].rstrip().endswith(":") and ordinal.isdigit() and \
                    f"{doc}#{int(ordinal) + 1}" not in held:
                titles.setdefault(chunk.title, None)
    return list(titles)


def _places_of_named(question: str, found: list[Chain]) -> list[str]:
    """The places ('Site: Stavanger') of the units stating someone the question names, best first.

    A place the question names itself ('the first aider in the Glasgow office') is no link: it was looked up.
    """
    named = [stems(name) for name in entities(question, names_only=True)]
    asked = stems(question)
    placed: dict[str, None] = {}
    for chain in found:
        if any(name and name <= chain.last.unit.stems for name in named):
            placed.update(dict.fromkeys(p for p in sorted(places(chain.last)) if not stems(p) <= asked))
    return list(placed)


GIVEN_BONUS = 0.2
"""A passage that states a value the question gives (its date, its amount's range) is the row it selects."""


def _leads_to_new(chain: Chain, lead: re.Pattern[str] | None, followed: set[str]) -> bool:
    """Whether the chain's last unit leads, by the question's verb, to a name not followed yet."""
    text = chain.last.unit.plain
    return any(not any(normalise_name(text[m.end():]).startswith(name) for name in followed)
               for m in (lead.finditer(text) if lead else ()))


def _leads(chain: Chain, lead: re.Pattern[str] | None = None, followed: frozenset[str] = frozenset()) -> float:
    """How likely a chain leads to the answer, best first: what it covers, the rows the question selects first.

    A superseded passage or a row about other amounts leads nowhere. A row whose column names the doer of the
    question's verb ('Approver' for 'who has to approve'), or a passage the verb leads to a name in ('approved in
    writing by the Regional Operations Lead') not `followed` yet, leads to the person asked about.
    """
    given = any(r.given for r in chain.readings)
    applies = all(r.applies for r in chain.readings)
    doer = any(r.doer for r in chain.readings) or _leads_to_new(chain, lead, set(followed))
    return -(chain.coverage + GIVEN_BONUS * given + DOER_BONUS * doer - (0 if applies else 1.0))


def missing_links(question: str, understanding: Understanding, evidence: list[Evidence],
                  followed: set[str], similarity: Similarity | None = None) -> Lack:
    """Whether the evidence answers the question already, and if not, what to look for next.

    That is the names to follow (not in `followed`, normalised), or a list that continues beyond what is held.
    """
    expected, found = best_chains(question, understanding, evidence)
    if expected.kind == "list":
        units, rank_of = evidence_units(evidence)
        unfinished_lists = unfinished(question, expected, read(question, expected, units, rank_of))
        if unfinished_lists:
            return Lack(False, unfinished=unfinished_lists, asked_of=head_phrase(question))
    if expected.kind in ("number", "amount") and asks_tally(question):  # 'How many people are in Leeds?': all rows
        units, rank_of = evidence_units(evidence)
        named = understanding.entities or entities(question, names_only=True)
        rows = counted_rows(question, read(question, expected, units, rank_of), named,
                            counted_noun(question, expected))
        if title := unheld(rows, evidence):
            return Lack(False, unfinished=[title], asked_of=head_phrase(question))
    answered = bool(synthesise(question, understanding, evidence, None, similarity).claims)
    latest = max((e.hop for e in evidence), default=0)
    on_topic = bool(found) and max(c.coverage for c in found) >= ON_TOPIC
    progress = any(r.unit.evidence.hop == latest for c in found[:CHAINS_READ] for r in c.readings)
    if not answered and (cut := cut_short(found[:CHAINS_READ], evidence)):
        return Lack(False, unfinished=cut, asked_of=head_phrase(question), on_topic=on_topic, progress=progress)
    names: dict[str, None] = {}
    held = set().union(*(title_keys(e.title) for e in evidence))  # a document held already leads nowhere new
    lead = doer_lead(doer_verb(question))
    best: list[Chain] = sorted(found, key=lambda chain: _leads(chain, lead, frozenset(followed)))[:CHAINS_READ]
    # a question about someone's office or site: the place their own row gives leads to that place's page
    if asks_a_place(question):
        for place in _places_of_named(question, found):
            if normalise_name(place) not in followed | held:
                names.setdefault(place, None)
    # the best name of each of the best chains first, then their next names
    listed = [[n for n in names_in(chain.last, question) if normalise_name(n) not in followed | held] for chain in best]
    for rank in range(max((len(found_names) for found_names in listed), default=0)):
        for found_names in listed:
            if rank < len(found_names):
                names.setdefault(found_names[rank], None)
    return Lack(answered, list(names)[:MAX_LINKS], head_phrase(question), on_topic=on_topic, progress=progress)
