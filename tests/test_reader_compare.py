"""Comparisons of typed values and the limit that decides a yes/no question (issue 32).

Invented documents: a choice between two sites compares their hours (times of day) or the figures their names label
(a slide's 'Harwick 31.2'); a yes/no question about a figure says the limit that decides it.
"""

from __future__ import annotations

import pytest

from boundloop.domain.models import Claim, Verdict
from boundloop.domain.verdicts import Decided, decided
from boundloop.policies.verification import grounded_short_answer
from boundloop.reasoners.offline.classify import classify
from boundloop.reasoners.offline.clock import minutes
from boundloop.reasoners.offline.planning import plan
from tests.reader_fixtures import evidence, short_answer

ASHBY = evidence("site-guide-ashby", "Site guide — Ashby depot",
                 "Site: Ashby depot\nAddress: 4 Mill Lane, Ashby\nOffice hours: 08:15–17:00 Mon–Fri\n"
                 "Gate hours: 05:00–23:00 every day")
CORLEY = evidence("site-guide-corley", "Site guide — Corley depot",
                  "Site: Corley depot\nAddress: 9 Quay Road, Corley\nOffice hours: 07:45–16:30 Mon–Fri\n"
                  "Canteen: open 11:30–14:00")


def test_a_choice_of_opening_times_compares_the_hours_of_each_option():
    assert short_answer("Which office opens earlier, Ashby or Corley?", ASHBY, CORLEY,
                        query_class="comparison", entities=("Ashby", "Corley")) == "Corley"
    assert short_answer("Which office closes later, Ashby or Corley?", ASHBY, CORLEY,
                        query_class="comparison", entities=("Ashby", "Corley")) == "Ashby"


def test_options_typed_in_lower_case_are_the_compared_things():
    question = "which office opens earlier in the morning, ashby or corley?"
    understood = classify(question)
    assert understood.query_class == "comparison"
    assert {"ashby", "corley"} <= {e.lower() for e in understood.entities}
    searches = [q.text for q in plan(question, understood).subqueries]
    # each option is searched with what is asked of it in its documents' words, not the comparison's
    assert any(s.startswith("ashby") and "hours" in s and "earlier" not in s for s in searches)


@pytest.mark.parametrize("written, expected", [
    ("07:30–17:00", [450, 1020]), ("9am - 1pm", [540, 780]), ("12 noon", [720]), ("6.30pm", [1110]),
])
def test_times_of_day_read_as_minutes(written, expected):
    assert minutes(written) == expected


SLIDES = evidence("q3-review", "Q3 review — slide export",
                  "## Slide 2 — Throughput\n\n- Harwick 120,400 TEU · Selby 88,100 TEU\n\n"
                  "## Slide 3 — Productivity (GCR, moves per crane-hour)\n\n- Harwick 24.1\n- Selby 28.6\n")


def test_a_figure_is_the_one_the_options_name_labels_under_the_heading_asked():
    assert short_answer("Did Harwick or Selby have the higher crane rate in Q3?", SLIDES,
                        query_class="comparison", entities=("Harwick", "Selby")) == "Selby"


def test_a_figure_a_field_names_in_each_option_guide_is_compared():
    big = evidence("guide-fenby", "Fenby Works — Site Guide", "Last reviewed: 3 March 2024\nDesign capacity: 90 Ml/d")
    small = evidence("guide-tolby", "Tolby Works — Site Guide",
                     "Tolby is our smaller works (design capacity 35 Ml/d), up on the fell.")
    assert short_answer("Which works has the bigger capacity, Fenby or Tolby?", big, small,
                        query_class="comparison", entities=("Fenby", "Tolby")) == "Fenby"


HOTELS = evidence("travel-policy", "Travel policy",
                  "## Hotel limits (per night)\n\nCity: Ostend; Limit: €140\nCity: Lyon; Limit: €150\n")
SPEEDS = evidence("yard-rules", "Yard safety rules",
                  "## Speed limits\n\nArea: Service roads; Limit: 20 km/h\n"
                  "Area: Inside the loading bay; Limit: 5 km/h (walking pace)\n")


def test_a_no_decided_by_a_limit_says_the_limit():
    said = short_answer("Can I book a hotel in Ostend at €160 a night?", HOTELS)
    assert said == "No: the limit for Ostend is €140"


def test_a_yes_decided_by_a_limit_says_it_too():
    said = short_answer("Is a €130 hotel night in Lyon within the limit?", HOTELS)
    assert said is not None and said.startswith("Yes") and "€150" in said


def test_a_limit_in_a_cell_under_a_limit_header_decides_a_speed():
    said = short_answer("is 8 km/h ok inside the loading bay?", SPEEDS)
    assert said is not None and said.startswith("No") and "5 km/h" in said


def test_the_verdict_form_is_read_back_in_its_parts():
    assert decided("No: the limit for Ostend is €140") == Decided("no", "limit", "€140", "Ostend")
    assert decided("Yes: the minimum is 3 quotes") == Decided("yes", "minimum", "3 quotes", "")
    assert decided("no") is None and decided("Ostend") is None


def test_the_verifier_keeps_a_stated_limit_and_drops_one_the_evidence_does_not_state():
    claim = Claim(text="City: Ostend; Limit: €140", citations=[HOTELS.chunk_id])
    verdicts = [Verdict(claim=claim, supported=True)]
    assert grounded_short_answer("No: the limit for Ostend is €140", verdicts, [HOTELS]) == \
        "No: the limit for Ostend is €140"
    assert grounded_short_answer("No: the limit for Ostend is €120", verdicts, [HOTELS]) == "no"


def test_an_option_named_by_its_documents_title_grounds_a_choice():
    claim = Claim(text="Office hours: 07:45–16:30 Mon–Fri", citations=[CORLEY.chunk_id])
    plain = evidence("hours", "Opening hours", "Office hours: 07:45–16:30 Mon–Fri")
    assert grounded_short_answer("Corley", [Verdict(claim=claim, supported=True)], [CORLEY]) == "Corley"
    other = Claim(text="Office hours: 07:45–16:30 Mon–Fri", citations=[plain.chunk_id])
    assert grounded_short_answer("Corley", [Verdict(claim=other, supported=True)], [plain]) is None


def test_a_time_of_day_is_read_against_the_bound_in_force():
    table = evidence("allowances-2025", "Shift allowances 2025",
                     "Issued: 2025-01-10\n\nAllowance: early morning allowance (EMA); When it is paid: shift "
                     "starting before 06:00; Rate: €6 per shift")
    minutes_ = evidence("committee-2025-05", "Joint committee minutes — 14 May 2025",
                        "DECISION 3/2025: From 1 June 2025 the early morning allowance (EMA) is paid for any shift "
                        "starting before 06:30 (previously: before 06:00).")
    question = "my shift starts at 06:10 - do I get the early morning allowance?"
    assert short_answer(question, table) == "No: the limit is 06:00"
    said = short_answer(question, table, minutes_)
    assert said is not None and said.startswith("Yes") and "06:30" in said
