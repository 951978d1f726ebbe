"""Offline synthesis: a registry of named rules, tried in order; the first that answers drafts the claims.

Each rule reads the same case (the question as read, what it asks for, the evidence's units and readings) and either
drafts claims with a short answer or passes. The answer names the rule behind each claim, so the trace and
`ask --json` (`reading`) say how an answer was read, and a run with no claim says which check rejected the best
candidate. Claims are the evidence's own sentences, cleaned, so each is grounded in the chunk it cites.
"""

from __future__ import annotations

import re
from dataclasses import replace

from boundloop.domain.models import Assessment, Draft, Evidence, Understanding
from boundloop.domain.text import stem, stems
from boundloop.reasoners.offline.acronyms import in_full
from boundloop.reasoners.offline.answer_types import Expected, expected_answer, head_phrase
from boundloop.reasoners.offline.answerability import Similarity
from boundloop.reasoners.offline.bands import band_of
from boundloop.reasoners.offline.case import Case, Decision, Rule, named
from boundloop.reasoners.offline.chains import Chain, chains
from boundloop.reasoners.offline.changes import changed_value
from boundloop.reasoners.offline.compare import choose, full_name, sides, yes_or_no
from boundloop.reasoners.offline.definitions import asked_acronym, definition
from boundloop.reasoners.offline.drafting import (
    MIN_COVERAGE,
    NAMED_KIND,
    NOT_LISTED,
    PROPER,
    asked_of,
    draft_of,
    each_document_readings,
    join_items,
    rejection,
    superseded_values,
)
from boundloop.reasoners.offline.flags import count, row_answer
from boundloop.reasoners.offline.in_force import in_force
from boundloop.reasoners.offline.link_answer import chain_answer, named_in_full
from boundloop.reasoners.offline.lists import bounded, list_items, superlative_item
from boundloop.reasoners.offline.passages import passage
from boundloop.reasoners.offline.permission import allowed_by_name, forbidden
from boundloop.reasoners.offline.procedures import procedure
from boundloop.reasoners.offline.shared import shared_trait
from boundloop.reasoners.offline.siblings import single_question
from boundloop.reasoners.offline.stated import LITERAL_KINDS
from boundloop.reasoners.offline.tallies import counted_noun, tally, total


def _choice(case: Case) -> Draft | None:
    """'Who is older, X or Y?': the option its evidence favours; a person as their own document names them."""
    if case.expected.kind != "choice" or not case.relevant:
        return None
    picked = choose(case.question, case.expected.options, case.relevant, case.weights, case.readings)
    if not picked:
        return None
    named = full_name(picked[0], case.readings) if re.search(r"(?:^|,)\s*who\b", case.question, re.I) else picked[0]
    return case.draft(picked[1], named)


def _acronym(case: Case) -> Draft | None:
    """'What does LOTO mean?': the glossary's spelling."""
    acronym = asked_acronym(case.question)
    defined = definition(acronym[0], case.readings) if acronym else None
    return case.draft([defined[1]], defined[0]) if defined else None


def _row_mark(case: Case) -> Draft | None:
    """'Is Ascension Day off in Leeds?': the row's mark in Leeds's column."""
    said = row_answer(case.readings, case.names) if case.expected.kind == "yes_no" else None
    return case.draft(said[1], said[0]) if said else None


def _total(case: Case) -> Draft | None:
    """'The combined capacity of the Tilburg rooms': the sum of their cells."""
    if case.expected.kind not in ("number", "amount"):
        return None
    added = total(case.question, case.readings, case.names, counted_noun(case.question, case.expected))
    return case.draft(added[1], added[0]) if added else None


def _rows_within_bound(case: Case) -> Draft | None:
    """'How many rooms seat 12 or more?': the rows that do, counted."""
    if not (case.counting and bounded(case.question) and (phrase := head_phrase(case.question))):
        return None
    listed = list_items(case.question, Expected("list", phrase[-1]), case.readings)
    return case.draft(listed[0], str(len(listed[1]))) if listed else None


def _marked_rows(case: Case) -> Draft | None:
    """'How many holidays does Rotterdam get?': the rows marked in Rotterdam's column."""
    counted = count(case.readings, case.names, stems(" ".join(head_phrase(case.question)))) if case.counting else None
    return case.draft(counted[1], counted[0]) if counted else None


def _tally(case: Case) -> Draft | None:
    """'How many people are based in Leeds?': the rows naming Leeds."""
    if not case.counting:
        return None
    tallied = tally(case.question, case.readings, case.names, counted_noun(case.question, case.expected))
    return case.draft(tallied[1], tallied[0]) if tallied else None


def _yes_no(case: Case) -> Draft | None:
    """A yes/no question read against the unit that covers it; a 'no' an exception by name allows is no answer."""
    if case.expected.kind != "yes_no" or not case.relevant or \
            max(asked_of(r, case.weights, case.question) for r in case.relevant) < MIN_COVERAGE:
        return None
    said = yes_or_no(case.question, case.understanding.entities, case.relevant, case.weights)
    if not said or (said[0].lower().startswith("no") and allowed_by_name(case.question, said[1][0].unit, case.units)):
        return None
    return case.draft(said[1], said[0])


def _forbidden(case: Case) -> Draft | None:
    """'Am I allowed to ...?': the rule closest in meaning forbids it."""
    if case.expected.kind != "yes_no":
        return None
    ruled = forbidden(case.question, case.readings, case.units, case.similarity)
    return case.draft(ruled[1], ruled[0]) if ruled else None


def _shared_trait(case: Case) -> Draft | None:
    """'What sport do both X and Y play?': a word describing both."""
    if case.expected.kind in ("yes_no", "choice"):
        return None
    proper = case.expected.kind in PROPER or NAMED_KIND.search(case.question) is not None
    common = shared_trait(case.question, case.names, case.readings, case.similarity, proper,
                          case.expected.kind == "list")
    return case.draft(common[1], common[0]) if common else None


def _superlative(case: Case) -> Draft | None:
    """'The biggest meeting room at Northgate': the row with the largest measure."""
    top = superlative_item(case.question, case.expected, case.readings) if case.relevant else None
    return case.draft(top[0], top[1]) if top else None


def _list(case: Case) -> Draft | None:
    """'Which rooms seat 12?': the rows or items that qualify."""
    listed = list_items(case.question, case.expected, case.readings) \
        if case.expected.kind == "list" and case.relevant else None
    return case.draft(listed[0], join_items(listed[1])) if listed else None


def _procedure(case: Case) -> Draft | None:
    """'How do I ...?': the steps, in order; no short answer."""
    steps = procedure(case.readings, case.weights) if case.expected.kind == "explanation" else None
    return case.draft(steps, None) if steps else None


def _comparison(case: Case) -> Draft | None:
    """Two named things compared: the best unit about each; one value they share, else each one's."""
    entities_ = case.understanding.entities
    if case.understanding.query_class != "comparison" or len(entities_) < 2:
        return None
    compared = sides(entities_, [r for r in case.readings if r.coverage >= MIN_COVERAGE * 0.8])
    if len(compared) < 2:
        return None
    values = {(r.answer or "").casefold() for r in compared}
    short = compared[0].answer if len(values) == 1 else "; ".join(
        f"{e}: {r.answer}" for e, r in zip(entities_, compared, strict=False))
    return case.draft(compared, short if case.expected.wants_value else None)


RULES: tuple[Rule, ...] = (
    Rule("choice", _choice),
    Rule("acronym_definition", _acronym),
    Rule("table_row_mark", _row_mark),
    Rule("sum_of_rows", _total),
    Rule("count_rows_within_bound", _rows_within_bound),
    Rule("count_marked_rows", _marked_rows),
    Rule("count_rows_naming", _tally),
    Rule("yes_no", _yes_no),
    Rule("forbidden_by_rule", _forbidden),
    Rule("shared_trait", _shared_trait),
    Rule("superlative_row", _superlative),
    Rule("list_items", _list),
    Rule("procedure_steps", _procedure),
    Rule("comparison_sides", _comparison),
)
"""The rules tried before the chains, in order: the first that drafts answers."""

CHAIN, IN_FORCE, IN_FULL, EACH_DOCUMENT = "best_chain", "in_force_change", "spelled_in_full", "each_document_field"


def _candidates(case: Case) -> list[Chain]:
    """Every chain that may answer, best first, less those the question's kind rules out."""
    found = chains(case.readings, case.question, case.weights)
    head = case.expected.head
    if case.expected.kind in LITERAL_KINDS | {"address"} and (valued := [c for c in found if c.answer]):
        found = valued  # a postcode is answered by a chain ending at a postcode, not by one ending at its site
    if case.expected.kind == "list":  # no list found: a passage may still answer, if it names what is listed
        stemmed = stem(head) if head else ""
        found = [c for c in found if any(stemmed in r.unit.stems | r.unit.context_stems for r in c.readings)]
    return found


def _by_chain(case: Case, passages: bool = False) -> Decision:
    """The best chain of units, if it passes every check; with the value a later document changed it to.

    With `passages`, a chain rejected only because no value was read out of it may still answer in its own words
    (rule `passage`, passages.py).
    """
    found = _candidates(case)
    if not found:
        return Decision(Draft(), rejected="no candidate: no unit or chain covers the question")
    if why := rejection(case.question, case.expected, found, case.weights, case.similarity, case.units):
        return (passage(case, found, why) if passages else None) or Decision(Draft(), rejected=why)
    best = named_in_full(found)  # 'Appleby-in-Westmorland', not 'Appleby', when a chain nearly as good names it so
    conflicts = superseded_values(best.last, case.readings)
    if case.expected.wants_value and (change := changed_value(best.last, case.readings)):
        # 'go-live postponed from 2 June 2025 to Monday 7 July 2025': the new value, cited where the change is said;
        # the old value is its context there, never a claim of its own
        draft = case.draft([*best.readings[:-1], change[0]], change[0].answer)
        return named(draft.model_copy(update={"conflicts": [change[1], *conflicts]}), CHAIN, [(change[0], IN_FORCE)],
                      case)
    settled = in_force(best.last, case.readings, MIN_COVERAGE / 2) if case.expected.wants_value else None
    if settled is not None:
        conflicts = [*settled.conflicts, *(c for c in conflicts if not any(
            set(c.values) == set(s.values) for s in settled.conflicts))]
    if settled is not None and settled.reading is not best.last:
        # 'every 90 minutes' in force over a superseded 'every 2 hours': the value in force, cited where it is said
        draft = case.draft([*best.readings[:-1], settled.reading], settled.reading.answer)
        decision = named(draft.model_copy(update={"conflicts": conflicts}), CHAIN, [(settled.reading, IN_FORCE)],
                         case)
        return replace(decision, note=settled.note)
    short = chain_answer(best, case.expected, case.question) if case.expected.wants_value else None
    short = band_of(best.last.unit, case.expected) or short  # 'the pay band': 'EUR 1,180 – EUR 1,330', both columns
    cited, extra = list(best.readings), []
    if full := in_full(short, [r.unit.plain for r in case.readings], case.question):
        short = full[0]  # 'SARS' asked for in full: 'Severe acute respiratory syndrome', cited where it is spelled
        spelled = case.readings[full[1]]
        cited += [spelled] if spelled not in cited else []
        extra = [(spelled, IN_FULL)]
    decision = named(case.draft(cited, short).model_copy(update={"conflicts": conflicts}), CHAIN, extra, case)
    return replace(decision, note=settled.note) if settled is not None else decision


def read_answer(question: str, understanding: Understanding, evidence: list[Evidence],
                similarity: Similarity | None = None, passages: bool = False) -> Decision:
    """The claims that answer the question, the rule behind each, or why none does.

    `similarity` lets the answerability model decide whether the best reading answers; without it (evaluate's cheap
    check) coverage decides. `passages` lets an on-topic reading without a value answer in its own words (the final
    synthesis; evaluate's check must not take a passage for an answer, or it would stop looking for the value).
    """
    if (single := single_question(question)) and \
            expected_answer(question, understanding.query_class).kind not in NOT_LISTED and \
            (each := each_document_readings(question, single, evidence)).readings:
        # one value per sibling document, each citing its own passage; the siblings giving none are named
        draft = draft_of(single, each.readings, join_items([r.answer or "" for r in each.readings]))
        without = f"no value read from {', '.join(each.without)}" if each.without else ""
        return Decision(draft, (EACH_DOCUMENT,) * len(draft.claims), note=without)
    case = Case.read(question, understanding, evidence, similarity)
    for rule in RULES:
        if (drafted := rule.answer(case)) is not None:
            return named(drafted, rule.name, [], case)
    return _by_chain(case, passages)


def synthesise(question: str, understanding: Understanding, evidence: list[Evidence],
               assessment: Assessment | None, similarity: Similarity | None = None) -> Draft:
    """The claims that answer the question, in reading order, and the short answer; none when nothing answers."""
    return read_answer(question, understanding, evidence, similarity).draft
