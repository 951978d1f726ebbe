"""What the reader's named rules share: the evidence read as units, the question as read, and drafts of readings.

Claims are the evidence's own sentences, cleaned, so each is grounded in the chunk it cites.
"""

from __future__ import annotations

import re

from boundloop.domain.models import Claim, Conflict, Draft, Evidence, Understanding
from boundloop.domain.text import entities, stems, topic_words, values
from boundloop.policies.deadline import within
from boundloop.policies.instructions import data_sentences
from boundloop.reasoners.offline.acronyms import expanded
from boundloop.reasoners.offline.answer_types import Expected, expected_answer
from boundloop.reasoners.offline.answerability import Similarity, load_model, names_absent, probability
from boundloop.reasoners.offline.casing import cased
from boundloop.reasoners.offline.chains import Chain, chains
from boundloop.reasoners.offline.choices import without_comparison
from boundloop.reasoners.offline.clauses import requested, without_hearsay, without_now, without_outcome
from boundloop.reasoners.offline.fields import field_asked, said_for
from boundloop.reasoners.offline.limits import deciding_limit
from boundloop.reasoners.offline.quantities import unstated
from boundloop.reasoners.offline.ranges import otherwise
from boundloop.reasoners.offline.reading import Reading, coverage, read, term_weights
from boundloop.reasoners.offline.render import render
from boundloop.reasoners.offline.siblings import Items, each_document, family_terms, field_terms, singular
from boundloop.reasoners.offline.typos import respelled_by
from boundloop.reasoners.offline.units import Unit, units_of
from boundloop.reasoners.offline.versions import older_versions

MAX_EVIDENCE = 12
PROPER = ("place", "person")
NAMED_KIND = re.compile(r"\bwhere\b|\b(?:what|which)\s+(?:\d{4}\s+)?[A-Z]")
"""A question asking a place ('based out of where?') or a kind qualified by a name or year ('what 1959 Soviet
feature'): a capitalised value answers it."""
ANSWER_FLOOR = 0.2
"""A chain covering less of the question than this does not answer it, whatever the model says (a salary row
read for 'the cap on nursing agency spend'). 0.25 cost HotpotQA dev answers; 0.2 cost none there, one MuSiQue dev."""
_ADDRESSES = ("url", "email", "phone", "room")
ADDRESS_COVERAGE = 0.8
"""An address of the kind asked (a URL, an email, a phone number, a room) in a unit covering this much of the question
answers it. The model hesitates when another row of the same table covers nearly as much (the catalogue's next
system), but the words that row lacks are the question's."""
MIN_COVERAGE = 0.45
"""A unit (or chain) must cover this much of the question (by weight, context at half) to answer it."""


def evidence_units(evidence: list[Evidence], cap: int = MAX_EVIDENCE) -> tuple[list[Unit], dict[str, int]]:
    """The units of the best `cap` chunks of evidence, and each chunk's rank."""
    ranked = sorted(evidence, key=lambda e: -e.score)[:cap]
    older = older_versions(ranked)
    units = [u for e in within(ranked) for u in units_of(e, e.doc_id in older)]  # the step's deadline: what is read
    return units, {e.chunk_id: i for i, e in enumerate(ranked)}


def rejection(question: str, expected: Expected, ranked: list[Chain], weights: dict[str, float],
              similarity: Similarity | None, others: list[Unit]) -> str:
    """Why the best chain does not answer the question, by the check that rejects it; '' when it answers.

    A value must be found when one is asked, and every name the question gives stated by the chain (or by one of
    `others` that names its answer). With a similarity, the answerability model decides, above a floor of
    coverage; without one (the cheap check evaluate makes), enough of the question must be covered. The reason
    names the check and its figures, never the passage's words (the trace shows it).
    """
    best = ranked[0]
    if best.answer is None and expected.wants_value and expected.kind not in ("other", "yes_no", "list"):
        return f"value_found: no {expected.kind} in the best reading"
    if names_absent(question, best, others):  # the Singapore office's address is not on a page about Lisbon
        return "names_stated: a name the question gives is not in the best reading"
    if similarity is None:
        return "" if best.coverage >= MIN_COVERAGE else \
            f"coverage: the best reading covers {best.coverage:.2f} of the question, under {MIN_COVERAGE}"
    if best.coverage < ANSWER_FLOOR:
        return f"coverage_floor: the best reading covers {best.coverage:.2f} of the question, under {ANSWER_FLOOR}"
    if expected.kind in _ADDRESSES and best.answer is not None and best.coverage >= ADDRESS_COVERAGE:
        return ""  # 'the web address of the system for leave requests': the leave system's URL, whatever else
    p, threshold = probability(question, expected, ranked, weights, similarity), load_model().threshold
    return "" if p >= threshold else f"answerability: the model gives {p:.2f}, under its threshold {threshold:.2f}"


def asked(question: str) -> str:
    """The question as read: sentences in it that read as instructions to the assistant are not what is asked.

    Nor is 'end up' before the verb it leads into ('how much did the ride end up raising' asks what it raised).
    """
    return without_outcome(requested(without_hearsay(" ".join(data_sentences(question)) or question)))


def best_chains(question: str, understanding: Understanding, evidence: list[Evidence]
                ) -> tuple[Expected, list[Chain]]:
    """The expected answer and every candidate chain over the evidence, best first."""
    question, expected, _, readings, weights = reading_of(question, understanding, evidence)
    return expected, chains(readings, question, weights)


def reading_of(question: str, understanding: Understanding, evidence: list[Evidence], cap: int = MAX_EVIDENCE
               ) -> tuple[str, Expected, list[Unit], list[Reading], dict[str, float]]:
    """The question as read, what it asks for, the evidence's units, each read for it, and its words' weights.

    As read: sentences that instruct the assistant out, acronyms spelled, a letter left out put back ('asembly'),
    names typed in lower case cased.
    """
    question = cased(respelled_by(expanded(asked(question), evidence), evidence), evidence)
    expected = expected_answer(question, understanding.query_class)
    units, rank_of = evidence_units(evidence, cap)
    weights = term_weights(without_now(question), units)  # 'at the moment' asks what is in force: no words to find
    if expected.kind == "choice":
        weights = without_comparison(weights, question)
    return question, expected, units, read(question, expected, units, rank_of, weights), weights


def claim_of(reading: Reading, question: str) -> Claim:
    return Claim(text=render(reading.unit, question), citations=[reading.unit.evidence.chunk_id])


SAME_SUBJECT = 0.5
"""Two units state the same thing when they share this share of their words (values aside)."""


def superseded_values(answer: Reading, readings: list[Reading]) -> list[Conflict]:
    """Other values a superseded or older document gives for what the answer states ('EUR 45' beside 'EUR 55')."""
    said = answer.unit.stems - set(stems(" ".join(values(answer.unit.plain))))
    found: list[Conflict] = []
    for other in readings:
        if not other.unit.superseded or other.answer is None or other.answer == answer.answer or not said or \
                any(other.answer in c.values for c in found):
            continue
        theirs = other.unit.stems - set(stems(" ".join(values(other.unit.plain))))
        shared = said & theirs
        if len(shared) / max(len(said | theirs), 1) >= SAME_SUBJECT:
            found.append(Conflict(topic=topic_words(answer.unit.plain, shared),
                                  values=[answer.answer or "", other.answer],
                                  chunk_ids=[answer.unit.evidence.chunk_id, other.unit.evidence.chunk_id]))
    return found[:3]


def join_items(names: list[str]) -> str:
    """'A, B and C'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def draft_of(question: str, readings: list[Reading], short_answer: str | None) -> Draft:
    """The readings as claims (one per distinct sentence, in order) with the short answer."""
    claims: dict[str, Claim] = {}
    for r in readings:
        claim = claim_of(r, question)
        claims.setdefault(claim.text, claim)
    return Draft(claims=list(claims.values()), short_answer=short_answer)


NOT_LISTED = ("number", "amount", "yes_no", "choice")
"""What a question asked of a whole family wants when it is no list: 'the combined capacity of all the rooms'."""


PER_DOCUMENT, FAMILY_EVIDENCE = 2, 30
"""A question asked of every member of a family reads the best chunks of each document, not the best of all: the
family's twelfth site guide would otherwise be cut by the chunks of the first ones."""


def family_evidence(evidence: list[Evidence], field: set[str]) -> list[Evidence]:
    """Each document's `PER_DOCUMENT` chunks stating most of the field's words, then the best ranked.

    At most `FAMILY_EVIDENCE` in all. The chunk of a site guide holding 'First-aid contact: ...' ranks below its
    opening for the whole question, but it is the one that states the field.
    """
    taken: dict[str, int] = {}
    kept: list[Evidence] = []
    for e in sorted(evidence, key=lambda e: (-len(field & set(stems(e.text))), -e.score)):
        if taken.get(e.doc_id, 0) < PER_DOCUMENT and len(kept) < FAMILY_EVIDENCE:
            taken[e.doc_id] = taken.get(e.doc_id, 0) + 1
            kept.append(e)
    return kept


def each_document_readings(question: str, single: str, evidence: list[Evidence]) -> Items:
    """Rule `each_document_field`: the field's value in each sibling document (siblings.py, field_values.py)."""
    lookup = Understanding(query_class="lookup")
    terms = field_terms(question).split()
    family = family_evidence(evidence, said_for(terms))
    _, expected, _, readings, weights = reading_of(single, lookup, family, len(family))
    if expected.kind == "list" and expected.head:  # 'what is the wifi names': one name per document
        _, expected, _, readings, weights = reading_of(singular(single, expected.head), lookup, family, len(family))
    if not expected.wants_value or expected.kind in ("yes_no", "choice", "list") or \
            (field := field_asked(terms, weights, expected.kind)) is None:
        return Items([], [])
    return each_document(readings, field, family_terms(question))


def asked_of(reading: Reading, weights: dict[str, float], question: str) -> float:
    """A yes/no reading's coverage; a quantity the question gives is covered by a limit on its unit.

    For '7 days' against 'up to 5 days' the limit, not the number, is what the passage must state; so for '£110'
    against 'a maximum of £95'. A row for everywhere else states the place the question names.
    """
    text = reading.unit.plain
    if otherwise(text):  # 'anywhere else in the UK: £95' stands for the place the question names
        named = {k for name in entities(question, names_only=True) for k in stems(name)} - reading.unit.stems
        weights = {k: w for k, w in weights.items() if k not in named}
    elif deciding_limit(question, reading.unit) is None:
        return reading.coverage
    return coverage([reading.unit], unstated(weights, question))
