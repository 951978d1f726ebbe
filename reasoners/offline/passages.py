"""Rule `passage`: the best one or two cited sentences, when the evidence is on topic but no rule extracts a value.

'Which supplier does the laundry for the Harbour Street depot?' over 'Laundry for the Harbour Street depot is done by a
local cooperative under a three-year contract.': the sentence answers, but it names no supplier a rule could read as
the value, so the run used to end with a list of documents. The passage answer shows the sentences as written, each
citing its chunk, with no short answer. It is for evidence that is on topic by what the reader already measures,
never for evidence that does not say:

- every name the question gives is stated by the best reading (the Singapore address is not on a page about Lisbon),
  and so is its subject: no word carrying `SUBJECT_SHARE` of the question's weight is missing ('paternity leave'
  is not answered by the annual leave row);
- the reading covers at least the answer floor of the question;
- a value of a recognisable form (an amount, a date, a code, ...) asked for and not found means the documents do not
  say it ('the guest wifi password' over 'password from reception on the day'): abstain;
- the answerability model gives the reading at least its threshold: only the value was not found. A band under the
  threshold was measured and not kept (docs/reader.md, issue 32): on the tune half it answered a withheld question.

Never for chit-chat or live facts (out of scope), yes/no questions, choices or lists (other rules read those). The
evidence it reads is the run's permitted evidence, like every rule's.
"""

from __future__ import annotations

from boundloop.domain.text import values
from boundloop.reasoners.offline.answerability import asked_for, entity_missing, load_model, names_absent, probability
from boundloop.reasoners.offline.case import Case, Decision
from boundloop.reasoners.offline.chains import Chain
from boundloop.reasoners.offline.drafting import ANSWER_FLOOR
from boundloop.reasoners.offline.reading import GENERIC, TYPED_KINDS, Reading

PASSAGE = "passage"
PASSAGE_SENTENCES = 2
"""The units shown at most: the best chain's last and the one leading to it; for a chain of one field stating no value
(a record's label, 'Item: Enterprise value'), the field after it in its chunk ('Figure: EUR 18 million')."""
SUBJECT_SHARE = 0.4
"""A question word weighing this share of the question (by rarity) or more is its subject: the reading must state it."""
_NOT_PASSAGES = ("yes_no", "choice", "list")


def subject_missing(case: Case, best: Chain) -> bool:
    """Whether a word the question is about is missing from the chain's units and their context.

    Words that say little ('need', 'get') and the words naming what is asked (the value supplies them: 'number'
    for a phone) are not the subject.
    """
    said = frozenset().union(*(r.unit.stems | r.unit.context_stems for r in best.readings))
    total, head = sum(case.weights.values()) or 1.0, asked_for(case.question)
    return any(w / total >= SUBJECT_SHARE for k, w in case.weights.items()
               if k not in said and k not in GENERIC and k not in head)


def on_topic(case: Case, found: list[Chain], rejected: str) -> str:
    """Why the best chain is on topic though it was rejected ('' when it is not): the figures, never its words."""
    if rejected.partition(":")[0] != "value_found" or case.similarity is None or not found or \
            case.understanding.query_class == "out_of_scope" or case.expected.kind in _NOT_PASSAGES:
        return ""
    if case.expected.kind in TYPED_KINDS:
        return ""  # no amount in a reading where an amount is asked: the documents do not say it
    best = found[0]
    if names_absent(case.question, best, case.units) or entity_missing(case.question, best) > 0 or \
            subject_missing(case, best) or best.coverage < ANSWER_FLOOR:
        return ""
    p = probability(case.question, case.expected, found, case.weights, case.similarity)
    threshold = load_model().threshold
    if p < threshold:
        return ""
    return f"the model gives {p:.2f}, at or over its threshold {threshold:.2f}; every name and the subject stated"


def shown(case: Case, best: Chain) -> list[Reading]:
    """The readings a passage answer shows: one claim each, in reading order (`draft_of` drops repeated sentences)."""
    readings = list(best.readings[-PASSAGE_SENTENCES:])
    last = readings[-1].unit
    if len(readings) == 1 and last.cells and not values(last.plain):  # a record's label field: its value follows
        at = next((i for i, u in enumerate(case.units) if u is last), len(case.units))
        after = case.units[at + 1:at + 2]  # the units stand in the chunk's order; the readings, best first
        readings += [r for r in case.readings for u in after
                     if r.unit is u and u.cells and u.evidence.chunk_id == last.evidence.chunk_id]
    return readings


def passage(case: Case, found: list[Chain], rejected: str) -> Decision | None:
    """Rule `passage`: the best chain's last one or two units as claims, no short answer; None when off topic."""
    why = on_topic(case, found, rejected)
    if not why:
        return None
    draft = case.draft(shown(case, found[0]), None)
    note = f"a passage answer: no value was extracted ({rejected}); on topic: {why}"
    return Decision(draft, (PASSAGE,) * len(draft.claims), note=note)
