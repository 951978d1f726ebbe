"""Offline synthesis: the claims that answer the question, and its short answer.

It reads the evidence for the unit (or chain of units) that answers, renders it as claims and extracts the value
asked for. Claims are the evidence's own sentences, cleaned, so each is grounded in the chunk it cites.
"""

from __future__ import annotations

import re

from boundloop.domain.models import Assessment, Claim, Conflict, Draft, Evidence, Understanding
from boundloop.domain.text import entities, stem, stems, topic_words, values
from boundloop.policies.deadline import within
from boundloop.policies.instructions import data_sentences
from boundloop.reasoners.offline.acronyms import expanded, in_full
from boundloop.reasoners.offline.answer_types import Expected, expected_answer, head_phrase
from boundloop.reasoners.offline.answerability import Similarity, load_model, names_absent, probability
from boundloop.reasoners.offline.casing import cased
from boundloop.reasoners.offline.chains import Chain, chains
from boundloop.reasoners.offline.changes import changed_value
from boundloop.reasoners.offline.compare import choose, full_name, sides, yes_or_no
from boundloop.reasoners.offline.definitions import asked_acronym, definition
from boundloop.reasoners.offline.flags import count, row_answer
from boundloop.reasoners.offline.kin import past_the_person
from boundloop.reasoners.offline.lexicon import in_class
from boundloop.reasoners.offline.link_answer import chain_answer, named_in_full
from boundloop.reasoners.offline.lists import bounded, list_items, superlative_item
from boundloop.reasoners.offline.origins import same_country
from boundloop.reasoners.offline.permission import allowed_by_name, forbidden
from boundloop.reasoners.offline.procedures import procedure
from boundloop.reasoners.offline.quantities import fits, unstated
from boundloop.reasoners.offline.ranges import otherwise, within_cap
from boundloop.reasoners.offline.reading import Reading, coverage, read, term_weights
from boundloop.reasoners.offline.render import render
from boundloop.reasoners.offline.shared import shared_trait
from boundloop.reasoners.offline.siblings import each_document, field_terms, single_question, singular
from boundloop.reasoners.offline.tallies import asks_count, counted_noun, tally, total
from boundloop.reasoners.offline.units import Unit, units_of
from boundloop.reasoners.offline.versions import older_versions

MAX_EVIDENCE = 12
_PROPER = ("place", "person")
_NAMED_KIND = re.compile(r"\bwhere\b|\b(?:what|which)\s+(?:\d{4}\s+)?[A-Z]")
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


def evidence_units(evidence: list[Evidence]) -> tuple[list[Unit], dict[str, int]]:
    """The units of the best evidence, and each chunk's rank."""
    ranked = sorted(evidence, key=lambda e: -e.score)[:MAX_EVIDENCE]
    older = older_versions(ranked)
    units = [u for e in within(ranked) for u in units_of(e, e.doc_id in older)]  # the step's deadline: what is read
    return units, {e.chunk_id: i for i, e in enumerate(ranked)}


def answers(question: str, expected: Expected, ranked: list[Chain], weights: dict[str, float],
            similarity: Similarity | None, others: list[Unit]) -> bool:
    """Whether the best chain answers the question.

    A value must be found when one is asked, and every name the question gives stated by the chain (or by one of
    `others` that names its answer). With a similarity, the answerability model decides, above a floor of
    coverage; without one (the cheap check evaluate makes), enough of the question must be covered.
    """
    best = ranked[0]
    if best.answer is None and expected.wants_value and expected.kind not in ("other", "yes_no", "list"):
        return False
    if names_absent(question, best, others):  # the Singapore office's address is not on a page about Lisbon
        return False
    if similarity is None:
        return best.coverage >= MIN_COVERAGE
    if best.coverage < ANSWER_FLOOR:
        return False
    if expected.kind in _ADDRESSES and best.answer is not None and best.coverage >= ADDRESS_COVERAGE:
        return True  # 'the web address of the system for leave requests': the leave system's URL, whatever else
    return probability(question, expected, ranked, weights, similarity) >= load_model().threshold


def asked(question: str) -> str:
    """The question as read: sentences in it that read as instructions to the assistant are not what is asked."""
    return " ".join(data_sentences(question)) or question


def best_chains(question: str, understanding: Understanding, evidence: list[Evidence]
                ) -> tuple[Expected, list[Chain]]:
    """The expected answer and every candidate chain over the evidence, best first."""
    question, expected, _, readings, weights = _reading(question, understanding, evidence)
    return expected, chains(readings, question, weights)


def _reading(question: str, understanding: Understanding, evidence: list[Evidence]
             ) -> tuple[str, Expected, list[Unit], list[Reading], dict[str, float]]:
    """The question as read, what it asks for, the evidence's units, each read for it, and its words' weights.

    As read: sentences that instruct the assistant out, acronyms spelled, names typed in lower case cased.
    """
    question = cased(expanded(asked(question), evidence), evidence)
    expected = expected_answer(question, understanding.query_class)
    units, rank_of = evidence_units(evidence)
    weights = term_weights(question, units)
    return question, expected, units, read(question, expected, units, rank_of, weights), weights


def _claim(reading: Reading, question: str) -> Claim:
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


def _draft(question: str, readings: list[Reading], short_answer: str | None) -> Draft:
    claims: dict[str, Claim] = {}
    for r in readings:
        claim = _claim(r, question)
        claims.setdefault(claim.text, claim)
    return Draft(claims=list(claims.values()), short_answer=short_answer)


_NOT_LISTED = ("number", "amount", "yes_no", "choice")
"""What a question asked of a whole family wants when it is no list: 'the combined capacity of all the rooms'."""


def _each_document(question: str, single: str, evidence: list[Evidence]) -> list[Reading]:
    """Rule `each_document_field`: the single question's best reading from each sibling document (siblings.py)."""
    lookup = Understanding(query_class="lookup")
    _, expected, _, readings, weights = _reading(single, lookup, evidence)
    if expected.kind == "list" and expected.head:  # 'what is the wifi names': one name per document
        _, expected, _, readings, weights = _reading(singular(single, expected.head), lookup, evidence)
    if not expected.wants_value or expected.kind in ("yes_no", "choice", "list"):
        return []
    field = {k: weights[k] for k in stems(field_terms(question)) if weights.get(k)}  # the field's words, weighed
    return each_document([r for r in readings if r.coverage >= MIN_COVERAGE / 4], field)


def _asked_of(reading: Reading, weights: dict[str, float], question: str) -> float:
    """A yes/no reading's coverage; a quantity the question gives is covered by a limit on its unit.

    For '7 days' against 'up to 5 days' the limit, not the number, is what the passage must state; so for '£110'
    against 'a maximum of £95'. A row for everywhere else states the place the question names.
    """
    text = reading.unit.plain
    if otherwise(text):  # 'anywhere else in the UK: £95' stands for the place the question names
        named = {k for name in entities(question, names_only=True) for k in stems(name)} - reading.unit.stems
        weights = {k: w for k, w in weights.items() if k not in named}
    elif fits(question, text) is None and within_cap(question, f"{reading.unit.lead} {text}") is None:
        return reading.coverage
    return coverage([reading.unit], unstated(weights, question))


def synthesise(question: str, understanding: Understanding, evidence: list[Evidence],
               assessment: Assessment | None, similarity: Similarity | None = None) -> Draft:
    """The claims that answer the question, in reading order, and the short answer; none when nothing answers.

    `similarity` lets the answerability model decide whether the best reading answers; without it (evaluate's cheap
    check) coverage decides.
    """
    if (single := single_question(question)) and \
            expected_answer(question, understanding.query_class).kind not in _NOT_LISTED and \
            (each := _each_document(question, single, evidence)):
        return _draft(single, each, join_items([r.answer or "" for r in each]))  # one value per sibling document
    question, expected, units, readings, weights = _reading(question, understanding, evidence)
    relevant = [r for r in readings if r.coverage >= MIN_COVERAGE / 2]
    if expected.kind == "choice" and relevant:
        picked = choose(question, expected.options, relevant, weights, readings)
        if picked:  # 'Who is older, X or Y?': a person as their own document names them
            named = full_name(picked[0], readings) if re.search(r"(?:^|,)\s*who\b", question, re.I) else picked[0]
            return _draft(question, picked[1], named)
    if (acronym := asked_acronym(question)) and (defined := definition(acronym[0], readings)):
        return _draft(question, [defined[1]], defined[0])  # 'What does LOTO mean?': the glossary's spelling
    names = understanding.entities or entities(question, names_only=True)
    if expected.kind == "yes_no" and (said := row_answer(readings, names)):
        return _draft(question, said[1], said[0])  # 'Is Ascension Day off in Leeds?': the row's Leeds mark
    if expected.kind in ("number", "amount") and \
            (added := total(question, readings, names, counted_noun(question, expected))):
        return _draft(question, added[1], added[0])  # 'the combined capacity of the Tilburg rooms': their sum
    counting = expected.kind == "number" and asks_count(question)
    if counting and bounded(question) and (phrase := head_phrase(question)) and \
            (listed := list_items(question, Expected("list", phrase[-1]), readings)):
        return _draft(question, listed[0], str(len(listed[1])))  # 'How many rooms seat 12 or more?': rows that do
    if counting and (counted := count(readings, names, stems(" ".join(head_phrase(question))))):
        return _draft(question, counted[1], counted[0])  # 'How many holidays does Rotterdam get?': rows marked
    if counting and (tallied := tally(question, readings, names, counted_noun(question, expected))):
        return _draft(question, tallied[1], tallied[0])  # 'How many people are based in Leeds?': rows naming it
    if expected.kind == "yes_no" and (same := same_country(question, readings)):
        return _draft(question, same[1], same[0])  # 'Are X and Y located in the same country?': each one's country
    if expected.kind == "yes_no" and relevant and \
            max(_asked_of(r, weights, question) for r in relevant) >= MIN_COVERAGE:
        said = yes_or_no(question, understanding.entities, relevant, weights)
        if said and not (said[0] == "no" and allowed_by_name(question, said[1][0].unit, units)):
            return _draft(question, said[1], said[0])
    if expected.kind == "yes_no" and (ruled := forbidden(question, readings, units, similarity)):
        return _draft(question, ruled[1], ruled[0])  # 'Am I allowed to ...?': the rule closest in meaning forbids it
    if expected.kind not in ("yes_no", "choice") and \
            (common := shared_trait(question, names, readings, similarity,
                                    expected.kind in _PROPER or _NAMED_KIND.search(question) is not None,
                                    expected.kind == "list")):
        return _draft(question, common[1], common[0])  # 'What sport do both X and Y play?': a word describing both
    if relevant and (top := superlative_item(question, expected, readings)):
        return _draft(question, top[0], top[1])  # 'the biggest meeting room at Northgate': the row seating most
    if expected.kind == "list" and relevant:
        listed = list_items(question, expected, readings)
        if listed:
            return _draft(question, listed[0], join_items(listed[1]))
    if expected.kind == "explanation" and (steps := procedure(readings, weights)):
        return _draft(question, steps, None)
    if understanding.query_class == "comparison" and len(understanding.entities) >= 2:
        compared = sides(understanding.entities, [r for r in readings if r.coverage >= MIN_COVERAGE * 0.8])
        if len(compared) >= 2:
            values = {(r.answer or "").casefold() for r in compared}
            short = compared[0].answer if len(values) == 1 else "; ".join(  # one value they share, else each's
                f"{e}: {r.answer}" for e, r in zip(understanding.entities, compared, strict=False))
            return _draft(question, compared, short if expected.wants_value else None)
    found = chains(readings, question, weights)
    found = past_the_person(question, expected, found)  # 'When did Frances Vane's father die?': not her own dates
    if expected.head and (members := [c for c in found if c.answer and in_class(expected.head, c.answer)]):
        found = members  # 'What sport does the first openly gay athlete play?': 'soccer', not the athlete's name
    if expected.kind == "list":  # no list found: a passage may still answer, if it names what is listed
        head = stem(expected.head) if expected.head else ""
        found = [c for c in found if any(head in r.unit.stems | r.unit.context_stems for r in c.readings)]
    if not found or not answers(question, expected, found, weights, similarity, units):
        return Draft()
    best = named_in_full(found)  # 'Appleby-in-Westmorland', not 'Appleby', when a chain nearly as good names it so
    conflicts = superseded_values(best.last, readings)
    if expected.wants_value and (change := changed_value(best.last, readings)):
        # 'go-live postponed from 2 June 2025 to Monday 7 July 2025': the new value, beside the sentence it changes
        return _draft(question, [*best.readings, change[0]], change[0].answer).model_copy(
            update={"conflicts": [change[1], *conflicts]})
    short = chain_answer(best, expected, question) if expected.wants_value else None
    cited = list(best.readings)
    if full := in_full(short, [r.unit.plain for r in readings], question):
        short = full[0]  # 'SARS' asked for in full: 'Severe acute respiratory syndrome', cited where it is spelled
        cited += [readings[full[1]]] if readings[full[1]] not in cited else []
    return _draft(question, cited, short).model_copy(update={"conflicts": conflicts})

