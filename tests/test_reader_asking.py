"""What a question asks, read from its structure: a number one calls, a level, a date as a condition, units."""

from __future__ import annotations

import pytest

from boundloop.domain.models import Understanding
from boundloop.domain.text import calendar_words
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.answerability import names_absent
from boundloop.reasoners.offline.drafting import best_chains
from boundloop.reasoners.offline.spans import PATTERNS
from tests.reader_fixtures import evidence


@pytest.mark.parametrize("question, kind", [
    ("what's the number for the IT help desk?", "phone"),
    ("What is the number at the Porto de-icing centre?", "phone"),
    ("What is the number of rooms at Leeds?", "number"),  # 'the number of' counts
    ("At what oxygen level does the O2 alarm go off?", "number"),
])
def test_the_kind_of_answer_follows_the_phrase(question, kind):
    assert expected_answer(question).kind == kind


@pytest.mark.parametrize("span, calendar", [
    ("Sunday", True), ("Saturday 14 June", True), ("March", True), ("1st March", True),
    ("HSE", False), ("Leeds", False), ("May Lee", False),
])
def test_a_date_is_no_name(span, calendar):
    assert calendar_words(span) is calendar


@pytest.mark.parametrize("text, value", [
    ("Low alarm: 0.3 mg/l", "0.3 mg/l"), ("spills of more than 50 mL", "more than 50 mL"), ("Set to 2 bar.", "2 bar"),
])
def test_measures_keep_their_units(text, value):
    assert value in [m.group(0) for m in PATTERNS["number"].finditer(text)]


def test_a_weekday_in_the_question_need_not_be_in_the_passage():
    """'on a Sunday' is when it happens: a passage saying 'at weekends' still answers; a missing place does not."""
    desk = evidence("service-desk", "IT Service Desk", "Out of hours and at weekends, password resets go to the "
                    "duty engineer on ext. 2222.")
    for question, absent in (("Which extension resets a password on a Sunday?", False),
                             ("Which extension resets a password in Lisbon?", True)):
        _, found = best_chains(question, Understanding(query_class="lookup"), [desk])
        assert names_absent(question, found[0]) is absent


def test_the_number_for_a_desk_is_its_phone_number():
    it = evidence("it-wiki", "IT: getting help", "## Getting help from the IT Service Desk\nPhone: ext. 4357 from any "
                  "desk phone.\nPortal: help.example.com\nRooms on floor 2.")
    expected, found = best_chains("what's the number for the IT service desk?", Understanding(query_class="lookup"),
                                  [it])
    assert expected.kind == "phone" and found[0].answer in ("4357", "ext. 4357")
