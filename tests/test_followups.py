"""Offline follow-up resolution, table-tested: pronouns and ellipsis filled in from earlier turns, nothing else."""

from __future__ import annotations

import pytest

from boundloop.domain.conversation import Turn
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.reasoners.offline.followups import resolve
from boundloop.reasoners.offline.referents import topic
from tests.llm.fakes import budget

LEAVE = "How many days of annual leave do Lisbon employees get?"
PARKING = "How much does a monthly parking permit cost at the Toronto office?"
STIPEND = "What is the monthly remote-work stipend in Lisbon?"


def turn(question: str, short: str | None = None, status: str = "answered", answer: str = "") -> Turn:
    return Turn(run_id="r", question=question, standalone_question=question, answer=answer, short_answer=short,
                status=status)


@pytest.mark.parametrize("earlier, follow_up, standalone", [
    # ellipsis: a name for the name of the same shape, a phrase for the phrase with the same head, else the topic
    ([turn(LEAVE, "25 working days")], "And in Toronto?", "How many days of annual leave do Toronto employees get?"),
    ([turn(LEAVE, "25 working days")], "Toronto?", "How many days of annual leave do Toronto employees get?"),
    ([turn(PARKING, "CAD 180")], "What about Lisbon?",
     "How much does a monthly parking permit cost at the Lisbon office?"),
    ([turn(PARKING, "CAD 180")], "And daily parking?",
     "How much does a daily parking permit cost at the Toronto office?"),
    ([turn(STIPEND, "EUR 30")], "And the one-time home office setup budget?",
     "What is the one-time home office setup budget in Lisbon?"),
    ([turn("What is the daily meal allowance when travelling in Europe on a business trip?", "EUR 55")],
     "And in North America?", "What is the daily meal allowance when travelling in North America on a business trip?"),
    ([turn("What revenue does the Q3 2026 forecast expect?", None, "abstained")], "And in Q4?",
     "What revenue does the Q4 2026 forecast expect?"),
    ([turn("What is the learning budget for an employee in Lisbon?", "EUR 1,200")], "And for a contractor?",
     "What is the learning budget for a contractor in Lisbon?"),
    # pronouns: a person from a who-question's short answer, a thing from a name-like short answer or the topic
    ([turn("Who is the Head of Finance?", "Priya Raman")], "Where does she sit?", "Where does Priya Raman sit?"),
    ([turn("Who is the Office Manager in Toronto?", "Liam Beaulieu")], "What is his phone extension?",
     "What is Liam Beaulieu's phone extension?"),
    ([turn("Who is the Head of Security?", "Hannah Kowalski")], "And what is her mobile number?",
     "What is Hannah Kowalski's mobile number?"),
    ([turn("Who is the Head of Security?", "Hannah Kowalski")], "Who manages her?", "Who manages Hannah Kowalski?"),
    ([turn("Which HR system do we use to request leave?", "Tidewater")], "What is its web address?",
     "What is Tidewater's web address?"),
    ([turn("Which room hosts the Q2 town hall?", "Oceano")], "How many people can it seat?",
     "How many people can Oceano seat?"),
    ([turn(LEAVE, "25 working days")], "Can I carry it over?", "Can I carry days of annual leave over?"),
    ([turn(LEAVE, "25 working days")], "Who approves that?", "Who approves days of annual leave?"),
    ([turn(LEAVE, "25 working days")], "What are the salary bands there?", "What are the salary bands in Lisbon?"),
    ([turn("Who is the Head of Finance?", "Priya Raman"), turn("Which building is the Lisbon office in?", "Rua 39")],
     "What is her extension?", "What is Priya Raman's extension?"),  # the person, from an earlier turn
    ([turn("Who is the Head of IT?", None, "fallback")], "What is his mobile number?",
     "What is the Head of IT's mobile number?"),  # no name in the answer: the role the question asked about
    ([turn("Who is the Head of IT?", None, "fallback"), turn("Who is the Head of Finance?", "Priya Raman")],
     "Where does she sit?", "Where does Priya Raman sit?"),  # the most recent person
    ([turn("Who is on call this week?", None, "fallback")], "What is his number?", "What is his number?"),
    # a question that stands alone is kept as asked: a topic switch, and pronouns that point inside the question
    ([turn(LEAVE, "25 working days")], "What is the name of the guest Wi-Fi network?",
     "What is the name of the guest Wi-Fi network?"),
    ([turn("Who is the Head of Finance?", "Priya Raman")], "How do I reset my password if I forget it?",
     "How do I reset my password if I forget it?"),
    ([turn("Who is the Head of Finance?", "Priya Raman")], "Is it possible to expense a bike share membership?",
     "Is it possible to expense a bike share membership?"),
    ([turn(LEAVE, "25 working days")], "Is there a waitlist for parking permits?",
     "Is there a waitlist for parking permits?"),
    ([turn(LEAVE, "25 working days")], "Who owns that policy on parental leave?",
     "Who owns that policy on parental leave?"),
    ([], "Where does she sit?", "Where does she sit?"),  # nothing to lean on: as asked
])
def test_a_follow_up_is_made_to_stand_alone(earlier, follow_up, standalone):
    resolution = resolve(follow_up, earlier)
    assert resolution.standalone_question == standalone
    assert resolution.follow_up is (standalone != follow_up)


def test_the_trace_says_what_was_filled_in_and_from_which_turn():
    resolution = resolve("And in Toronto?", [turn(LEAVE, "25 working days")])
    assert resolution.follow_up and resolution.how == "ellipsis of turn 1: 'Lisbon' -> 'Toronto'"
    resolution = resolve("Where does she sit?", [turn("Who is the Head of Finance?", "Priya Raman"), turn(LEAVE)])
    assert resolution.how == "pronoun 'she' -> 'Priya Raman' (turn 1)"


def test_only_what_the_user_was_shown_is_read():
    """An abstained turn names nobody: its answer text is not mined for names (the role it asked about is used)."""
    shown = turn("Who is the Head of Finance?", None, "abstained", answer="Priya Raman might know; nothing answers it")
    assert resolve("Where does she sit?", [shown]).standalone_question == "Where does the Head of Finance sit?"
    shown = turn("Who owns the leave policy?", None, "abstained", answer="Priya Raman might know; nothing answers it")
    assert resolve("Where does she sit?", [shown]).standalone_question == "Where does she sit?"


def test_a_topic_is_the_phrase_after_the_question_word():
    assert topic(LEAVE) == "days of annual leave"
    assert topic(STIPEND) == "the monthly remote-work stipend"
    assert topic("Which HR system do we use to request leave?") == "HR system"
    assert topic("Why?") is None


def test_the_offline_reasoner_charges_what_it_reads_and_nothing_without_history():
    reasoner = OfflineReasoner()
    first = reasoner.resolve("Where does she sit?", [], budget())
    assert first.tokens == 0 and first.value.standalone_question == "Where does she sit?"
    follow = reasoner.resolve("Where does she sit?", [turn("Who is the Head of Finance?", "Priya Raman")], budget())
    assert follow.tokens > 0 and follow.value.standalone_question == "Where does Priya Raman sit?"
