"""Rule `passage`: on-topic evidence from which no value is read answers in its own cited sentences.

Abstention stays for evidence that does not say: a value of a recognisable form that is not there, a name the
question gives that the evidence does not state, a subject it does not mention, small talk. Evaluate's check keeps
the strict reading, so the loop goes on looking for the value.
"""

from __future__ import annotations

import pytest

from boundloop.domain.models import Understanding
from boundloop.evals.probe_sets import SetReport, judge
from boundloop.policies.budget import CallBudget
from boundloop.policies.outcome import choose_outcome
from boundloop.policies.verification import check_claims
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.reasoners.offline.extractive import read_answer, synthesise
from boundloop.reasoners.offline.passages import PASSAGE
from boundloop.reasoners.offline.similarity import EncoderSimilarity
from tests.reader_fixtures import evidence

pytestmark = pytest.mark.slow
LOOKUP = Understanding(query_class="lookup")
FACILITIES = evidence("hs", "Harbour Street depot - facilities",
                      "Laundry for the Harbour Street depot is done by a local cooperative under a three-year "
                      "contract.\nThe canteen is run in-house.\nAt the Harbour Street depot the fire extinguishers are "
                      "looked after by whoever is the duty supervisor that week.")
PARTY = evidence("party", "Harbour Street summer party - decisions", "Harbour Street summer party - decisions\n\n"
                 "Item: Caterer for the summer party\nDecision: the family-run kitchen next to the depot\n\n"
                 "Item: Music\nDecision: a playlist, no band\n")


@pytest.fixture(scope="module")
def similarity():
    return EncoderSimilarity()


def test_on_topic_evidence_without_a_value_answers_with_its_sentence(similarity):
    question = "Which supplier does the laundry for the Harbour Street depot?"
    assert not read_answer(question, LOOKUP, [FACILITIES], similarity).draft.claims  # the strict reading: no name
    decision = read_answer(question, LOOKUP, [FACILITIES], similarity, passages=True)
    assert [c.text for c in decision.draft.claims] == [
        "Laundry for the Harbour Street depot is done by a local cooperative under a three-year contract."]
    assert decision.draft.short_answer is None and decision.rules == (PASSAGE,)
    assert decision.draft.claims[0].citations == ["hs#0"]
    assert "passage answer" in decision.note and "value_found" in decision.note
    assert all(v.supported for v in check_claims(decision.draft.claims, [FACILITIES]))  # grounded by construction


def test_a_person_asked_for_and_not_named_answers_with_the_sentence_naming_the_duty(similarity):
    decision = read_answer("Who looks after the fire extinguishers at the Harbour Street depot?", LOOKUP,
                           [FACILITIES], similarity, passages=True)
    assert decision.rules == (PASSAGE,) and "duty supervisor" in decision.draft.claims[0].text


def test_a_label_field_shows_the_field_holding_its_value(similarity):
    decision = read_answer("Which caterer was chosen for the Harbour Street summer party?", LOOKUP, [PARTY],
                           similarity, passages=True)
    texts = [c.text for c in decision.draft.claims]
    assert texts == ["Item: Caterer for the summer party", "Decision: the family-run kitchen next to the depot"]
    assert decision.rules == (PASSAGE, PASSAGE) and decision.draft.claims[1].citations == ["party#0"]


@pytest.mark.parametrize("question", [
    "What's the password for the guest wifi at the Harbour Street depot?",  # a code is asked: none is there
    "Which supplier does the laundry for the Quayside depot?",  # a name the evidence does not state
    "Which supplier repairs the forklifts at the Harbour Street depot?",  # its subject is not in the evidence
    "who do you reckon will win the league this year?",  # small talk
])
def test_evidence_that_does_not_say_is_no_passage(similarity, question):
    wifi = evidence("wifi", "Harbour Street depot - visitors", "Guests at the Harbour Street depot use the HS-Guest "
                    "network (password from reception on the day).")
    decision = read_answer(question, LOOKUP, [FACILITIES, wifi], similarity, passages=True)
    assert not decision.draft.claims and decision.rules == ()


def test_out_of_scope_questions_get_no_passage(similarity):
    chat = Understanding(query_class="out_of_scope")
    decision = read_answer("Which supplier does the laundry for the Harbour Street depot?", chat, [FACILITIES],
                           similarity, passages=True)
    assert not decision.draft.claims


def test_the_final_synthesis_answers_with_a_passage_and_evaluate_does_not_count_it(similarity):
    question = "Which supplier does the laundry for the Harbour Street depot?"
    reasoner = OfflineReasoner()
    step = reasoner.synthesise(question, LOOKUP, [FACILITIES], None, CallBudget(seconds=60.0, tokens=100_000))
    assert step.value.claims and step.value.short_answer is None and step.rules == (PASSAGE,)
    assert step.note.startswith("read by rule passage; a passage answer: no value was extracted")
    assert choose_outcome("lookup", step.value.claims, [FACILITIES], [], None, False)[0] == "answered"
    # evaluate's check: a passage is no answer, so the loop still looks for the value
    assert not synthesise(question, LOOKUP, [FACILITIES], None, similarity).claims


def _result(answer: str, rule: str, short: str | None = None, status: str = "answered") -> dict:
    return {"status": status, "answer": answer, "short_answer": short, "citations": [], "fallback_results": [],
            "reading": [{"claim": 0, "rule": rule}]}


def test_the_probe_report_tallies_passage_hits_apart_from_the_strict_judge():
    asked = {"question": "Who does the laundry?", "expect": "answered", "short": ["cooperative"], "kind": "lookup"}
    held = _result("Laundry is done by a local cooperative [1]", PASSAGE)
    other = _result("Laundry is done in-house [1]", PASSAGE)
    read = _result("Laundry is done by a local cooperative [1]", "best_chain", "cooperative")
    report = SetReport("x")
    for result in (held, other, read):
        report.add("lookup", judge(asked, result))
    assert (report.as_expected, report.passages, report.passage_hits) == (1, 2, 1)
    assert report.as_json()["passage_hits"] == 1
    unanswerable = {"question": "Who does the laundry?", "expect": "abstain", "short": [], "kind": "unanswerable"}
    assert not judge(unanswerable, held).as_expected  # a passage is an answer: abstention questions still fail
