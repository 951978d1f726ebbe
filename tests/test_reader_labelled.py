"""Lookups read by structure: the value the asked-for noun labels, the unit a number is given in, a number one calls.

Invented documents; each case failed before the change it tests.
"""

from __future__ import annotations

import pytest

from boundloop.reasoners.offline.answer_types import expected_answer, head_noun
from boundloop.reasoners.offline.noun_values import labelled
from tests.reader_fixtures import evidence, short_answer


def test_a_measure_the_asked_noun_labels_answers_not_the_name_beside_it():
    fleet = evidence("fleet", "Harbour craft", "We run two pilot boats: Northwind Arrow (top speed 28 kn) and "
                     "Northwind Grey (top speed 22 kn). Both crews are based at Pier 9.")
    assert short_answer("what's the top speed of the Northwind Arrow?", fleet) == "28 kn"


def test_a_field_labelled_by_the_asked_noun_gives_its_measure_not_the_whole_line():
    bulletin = evidence("bulletin", "Safety bulletin 7 - Forklift aisles",
                        "Issued: 2026-02-01\nPedestrian gap: 3 metres either side of any moving forklift in the "
                        "racking aisles.\nIssued by: Warehouse Safety Lead")
    assert short_answer("What's the pedestrian gap either side of a moving forklift?", bulletin) == "3 metres"


def test_a_measure_before_the_asked_noun_answers():
    policy = evidence("rest-policy", "Working time", "## Limits\n- Minimum **12 hours** rest between two night "
                      "duties.\n- Maximum 4 night duties in a row.")
    assert short_answer("whats the minimum rest between two night duties", policy) == "12 hours"


def test_a_numbered_noun_is_answered_with_its_number():
    tips = evidence("radio-tips", "Warehouse radio tips", 'Forklift coordination ("FLT Control") is on channel 6 '
                    "of the handheld radios. Spare batteries are in the rack by the dock office.")
    assert short_answer("which radio channel is forklift coordination on?", tips) == "channel 6"


@pytest.mark.parametrize("text, head, kind, found", [
    ("Tug Aurora (bollard pull 50 t)", "pull", "name", ["50 t"]),
    ("Exclusion zone: 5 metres either side", "zone", "name", ["5 metres"]),
    ("Minimum 11 hours rest between shifts", "rest", "name", ["11 hours"]),
    ("Minimum 11 hours rest between shifts", "rest", "person", []),  # a typed kind is read by its own form
    ("We have 4 cranes on the quay", "crane", "name", []),  # a bare count before a noun is no measure of it
    ("Talk group: channel 12; spare channel 14", "channel", "code", ["channel 12", "channel 14"]),
])
def test_labelled_values(text, head, kind, found):
    assert [value for _, value in labelled(text, head, kind)] == found


@pytest.mark.parametrize("question, head", [
    ("whats the minimum rest between two shifts", "rest"),  # 'between' ends the asked-for phrase
    ("What's the exclusion zone either side of the crane?", "zone"),
])
def test_the_asked_for_phrase_ends_before_a_preposition(question, head):
    assert head_noun(question.replace("whats", "what is").replace("What's", "What is")) == head


def test_a_named_speed_keeps_its_unit():
    runbook = evidence("wind-runbook", "Crane wind runbook", "Red limit: stop crane operations when the gust speed "
                       "reaches 20 m/s at the boom tip.")
    assert short_answer("at what gust speed do we have to stop crane operations?", runbook) == "20 m/s"


def test_notice_is_a_duration():
    faq = evidence("boat-faq", "Boat hire FAQ", "Minimum notice for a boat booking is 3 hours before departure; "
                   "bookings for 2 boats or more need the duty manager.")
    assert short_answer("how much notice do I need to book a boat?", faq) == "3 hours"


@pytest.mark.parametrize("question, kind", [
    ("what's the 24 hour emergency number we give to customers?", "phone"),  # '24 hour' qualifies the number
    ("what is the support line for payroll?", "phone"),
    ("what is the number of staff in Leeds?", "number"),  # 'the number of' still counts
])
def test_a_number_one_calls(question, kind):
    assert expected_answer(question).kind == kind


def test_the_emergency_number_is_the_phone_number_not_the_hours():
    wiki = evidence("contact-wiki", "Contact centre - quick reference",
                    "## Opening hours\nLine: Emergency line; Hours: 24 hours a day, 7 days a week\n"
                    "## Numbers to give customers\n24/7 emergency line: 0800 555 0199 (free from landlines)")
    assert short_answer("what's the 24 hour emergency number we give to customers?", wiki) == "0800 555 0199"


@pytest.mark.parametrize("question, kind", [
    ("is the service desk open at the weekend? what hours?", "time"),  # the hours answer both
    ("is the canteen open on sundays?", "yes_no"),
    ("Can I bring a guest? who do I tell?", "person"),
])
def test_a_value_asked_after_a_yes_no_question_is_the_answer(question, kind):
    assert expected_answer(question).kind == kind


def test_the_weekend_hours_come_from_the_saturday_sunday_row():
    wiki = evidence("desk-wiki", "Service Desk - how to get help",
                    "## Opening hours\nDays: Monday–Friday; Hours: 07:00–20:00\n"
                    "Days: Saturday–Sunday; Hours: 09:00–15:00\nDays: Public holidays; Hours: on-call only")
    assert short_answer("is the service desk open at the weekend? what hours?", wiki) == "09:00–15:00"
