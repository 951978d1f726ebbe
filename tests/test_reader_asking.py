"""What a question asks, read from its structure: a number one calls, a level, a date as a condition, units."""

from __future__ import annotations

import pytest

from boundloop.domain.models import Understanding
from boundloop.domain.text import calendar_words
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.answerability import names_absent
from boundloop.reasoners.offline.clauses import requested
from boundloop.reasoners.offline.drafting import best_chains
from boundloop.reasoners.offline.extractive import read_answer
from boundloop.reasoners.offline.spans import PATTERNS
from tests.reader_fixtures import evidence, short_answer


@pytest.mark.parametrize("question, kind", [
    ("what's the number for the IT help desk?", "phone"),
    ("What is the number at the Porto de-icing centre?", "phone"),
    ("What is the number of rooms at Leeds?", "number"),  # 'the number of' counts
    ("At what oxygen level does the O2 alarm go off?", "number"),
    # a bound on a time is a length of time; a time of day stays one
    ("What's the minimum flight time for a business class seat?", "number"),
    ("What is the maximum response time for a P1 call?", "number"),
    ("What is the cut-off time for frozen parcels?", "time"),
    ("What is the latest time I can arrive?", "time"),
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


def test_how_often_takes_a_duration_not_a_section_number():
    rule = evidence("lone-working", "Lone working procedure", "3.1 Lone workers must phone the control room to check "
                    "in every 90 minutes while working alone.")
    expected, found = best_chains("How often do lone workers have to check in?", Understanding(query_class="lookup"),
                                  [rule])
    assert found[0].answer == "90 minutes"


def test_a_later_notice_that_a_rate_goes_up_gives_the_rate_in_force():
    from boundloop.reasoners.offline.extractive import synthesise

    policy = evidence("expenses-policy", "Travel and Expenses Policy", "Vehicle: Car or van; Rate: 45p per mile")
    notice = evidence("email-mileage", "Business mileage rate change", "From 1 April 2025 the mileage rate for cars "
                      "and vans will go up from 45p per mile to 49p per mile.")
    draft = synthesise("What is the mileage rate for a car?", Understanding(query_class="lookup"), [policy, notice],
                       None)
    assert draft.short_answer == "49p per mile"
    assert draft.conflicts and "45p per mile" in draft.conflicts[0].values


def test_the_plan_searches_what_a_request_asks():
    from boundloop.policies.budget import CallBudget
    from boundloop.reasoners.offline import OfflineReasoner

    plan = OfflineReasoner(answerability_model=False).plan(
        "remind me how often lone workers have to check in", Understanding(query_class="lookup"),
        CallBudget(seconds=18.0, tokens=45_000)).value
    assert "remind" not in plan.subqueries[0].text.lower() and "lone workers" in plan.subqueries[0].text


@pytest.mark.parametrize("question, stripped", [
    ("who reviews lone working incidents these days?", "who reviews lone working incidents ?"),
    ("Is staff parking still free?", "Is staff parking free?"),
    ("what is the rate at the moment", "what is the rate"),
])
def test_words_asking_what_holds_now_are_no_words_to_find(question, stripped):
    from boundloop.reasoners.offline.clauses import without_now

    assert without_now(question) == stripped


def test_asking_what_holds_now_also_searches_for_a_later_change():
    from boundloop.reasoners.offline.planning import plan

    searches = plan("who reviews lone working incidents these days?", Understanding(query_class="lookup")).subqueries
    changes = [q for q in searches if q.purpose == "a later change to what is asked"]
    assert changes and "days" not in changes[0].text.split()


def test_a_person_asked_for_is_the_holder_of_a_role_not_its_title():
    chart = evidence("org-chart", "Organisation chart", "- **Regional Operations Lead (ROL)** — Tomás Figueiredo "
                     "*(this role was called \"Head of Ground Operations\" until 2024)*\n"
                     "- **Head of People** — Marta Saraiva")
    _, found = best_chains("Who is the Regional Operations Lead?", Understanding(query_class="lookup"), [chart])
    assert found[0].answer == "Tomás Figueiredo"


@pytest.mark.parametrize("span, role", [
    ("Regional Operations Lead", True), ("Head of People", True), ("Control Room Supervisor", True),
    ("Tomás Figueiredo", False), ("Marta Saraiva", False), ("Leeds", False),
])
def test_a_roles_title_is_told_from_a_name(span, role):
    from boundloop.reasoners.offline.name_roles import ROLE_TITLE

    assert (ROLE_TITLE.search(span) is not None) is role


def test_a_misspelt_head_noun_is_read_as_spelled():
    from boundloop.reasoners.offline.answer_types import expected_answer
    from boundloop.reasoners.offline.head_nouns import spelled

    assert spelled("extention") == "extension" and spelled("adress") == "address"
    assert spelled("location") == "location" and spelled("steps") == "steps"
    assert expected_answer("whats the extention for the head of the SIU").kind == "phone"


def test_a_scene_then_two_questions_asks_the_last():
    from boundloop.reasoners.offline.answer_types import expected_answer
    from boundloop.reasoners.offline.clauses import interrogative

    question = "My expense claim comes to NOK 14,000 - who approves it and what's their extension?"
    assert interrogative(question) == "what's their extension?"
    assert expected_answer(question).kind == "phone"


@pytest.mark.parametrize("question, kind, head", [
    ("What's the enterprise value agreed for Project Kite?", "amount", "value"),  # 'agreed' ends the phrase
    ("What is the contract value of the cleaning tender?", "amount", "value"),
    ("What was the depot's average output in 2024?", "number", "output"),
    ("What breed of dog may come to the office?", "name", "breed"),  # a word in -eed is no participle
    ("Quick one: how fast do we have to acknowledge a P1 alarm?", "number", "deadline"),  # the time allowed
    ("how quickly must a chemical spill be reported?", "number", "deadline"),
])
def test_a_value_an_average_and_the_time_allowed_are_asked_for(question, kind, head):
    asked = expected_answer(question)
    assert (asked.kind, asked.head) == (kind, head)


def test_how_fast_something_must_be_done_is_answered_by_a_duration_not_a_speed():
    alarms = evidence("alarms", "SCADA alarm escalation", "Priority: P1; Examples: loss of supply; Acknowledge within: "
                      "5 minutes; Call-out within: 15 minutes\nThe conveyor runs at 2 m/s.")
    lookup = Understanding(query_class="lookup")
    assert best_chains("Quick one: how fast do we have to acknowledge a P1 alarm?", lookup, [alarms])[1][0].answer == \
        "5 minutes"
    assert best_chains("how fast does the conveyor run?", lookup, [alarms])[1][0].answer == "2 m/s"


@pytest.mark.parametrize("question, asked", [
    ("Quick one: how fast do we have to acknowledge a P1 alarm?", "how fast do we have to acknowledge a P1 alarm?"),
    ("Quick question - who signs it?", "who signs it?"),
    ("Question: is the canteen open?", "is the canteen open?"),
    ("Quick ones are fine: who", "Quick ones are fine: who"),  # no opener: it goes on as a sentence
])
def test_an_opener_before_the_question_asks_nothing(question, asked):
    assert requested(question) == asked


def test_a_table_under_a_heading_naming_another_year_is_about_that_year():
    summary = evidence("ops", "Annual Operations Summary 2024", "## Table 1 - Depots, 2023\nSite: Northgate; Average "
                       "output: 71.4 t/d\nSite: Eastgate; Average output: 31.2 t/d\n## Table 2 - Depots, 2024\nSite: "
                       "Northgate; Average output: 73.9 t/d\nSite: Eastgate; Average output: 29.8 t/d\n")
    lookup = Understanding(query_class="lookup")
    assert best_chains("What was Northgate's average output in 2024?", lookup, [summary])[1][0].answer == "73.9"
    assert best_chains("What was Northgate's average output in 2023?", lookup, [summary])[1][0].answer == "71.4"


def test_what_time_takes_the_column_the_question_names_not_the_times_column():
    rota = evidence("rota", "Packing hall shift rota", "Shift: Early; Times: 06:00 – 14:00; Briefing starts: 05:50\n"
                    "Shift: Late; Times: 14:00 – 22:00; Briefing starts: 13:50")
    lookup = Understanding(query_class="lookup")
    assert best_chains("What time does the early briefing start in the packing hall?", lookup, [rota])[1][0].answer \
        == "05:50"
    assert best_chains("What time does the late shift start in the packing hall?", lookup, [rota])[1][0].answer \
        == "14:00 – 22:00"  # the shift's times, of which the start is read


def test_a_band_asked_of_a_row_with_bounds_in_columns_is_its_minimum_to_maximum():
    bands = evidence("bands", "Salary bands 2025", "Grade: P1; Role: Picker I; Minimum: €1,050; Midpoint: €1,120; "
                     "Maximum: €1,190\nGrade: P2; Role: Picker II; Minimum: €1,190; Midpoint: €1,265; Maximum: €1,340")
    lookup = Understanding(query_class="lookup")
    assert short_answer("what's the pay band for a Picker II?", bands) == "€1,190 – €1,340"
    assert short_answer("what's the maximum pay for a Picker II?", bands) == "€1,340"  # one bound asked: one value
    assert read_answer("what's the pay band for a Picker II?", lookup, [bands]).draft.claims


def test_a_note_in_brackets_after_a_fields_value_is_not_part_of_it():
    guide = evidence("it", "IT & connectivity", "## IT Service Desk\n- Extension: **4100** (from any company phone, "
                     "all sites)\n- E-mail: servicedesk@example.com\nPlease do not call members of the IT team on "
                     "their direct extensions for new problems.")
    directory = evidence("dir", "Staff directory", "Name: Ana Reis; Department: Executive; Site: Head office; "
                         "Extension: 4001; Room: A2.01", score=0.02)
    assert short_answer("whats the IT service desk extension", guide, directory) == "4100"
