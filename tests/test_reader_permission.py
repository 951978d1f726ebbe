"""Permission questions ('Am I allowed to ...?', 'Can I ... without approval?') read against the governing rule."""

from __future__ import annotations

from functools import partial

import pytest

from boundloop.domain.models import Understanding
from boundloop.reasoners.offline.extractive import synthesise
from boundloop.reasoners.offline.similarity import EncoderSimilarity
from tests.reader_fixtures import evidence

FLEET = evidence("fleet", "Vehicle Card Policy", """# Vehicle Card Policy
## What you may buy
- Diesel for the vehicle the card belongs to
- AdBlue
- Screen wash

Everything else, such as snacks, car washes and accessories, is not allowed on the card.

## Private use
Using a vehicle card for a private vehicle, or outside business trips, is strictly prohibited. Misuse is gross
misconduct.

## Pool vans
Vans are booked through the Outlook resource calendar. Keys are collected from reception.""")

TRAVEL = evidence("travel", "Travel Rules", """# Travel Rules
Economy class is booked for flights under 6 hours. First class is only allowed with prior written approval from
the Finance Director. Hotels are booked through the Travel Desk.
Remote work may not exceed two days a week.""")


@pytest.fixture(scope="module")
def ask():
    return partial(synthesise, understanding=Understanding(query_class="lookup"), evidence=[FLEET, TRAVEL],
                   assessment=None, similarity=EncoderSimilarity())


def test_a_rule_forbidding_the_act_in_other_words_answers_no(ask):
    draft = ask("Am I allowed to use the van's card to fill up my own car on Saturday?")
    assert draft.short_answer == "no"
    assert [c.citations for c in draft.claims] == [["fleet#0"]]
    assert "strictly prohibited" in draft.claims[0].text


def test_approval_the_question_rules_out_answers_no_and_without_it_nothing_is_said(ask):
    draft = ask("Can I fly first class to Oslo without getting anyone's approval?")
    assert draft.short_answer == "no"
    assert "prior written approval" in draft.claims[0].text
    # asked without 'without', the rule allows it with approval: no 'no' is read from it
    assert ask("Can I fly first class to Oslo?").short_answer != "no"


def test_an_item_allowed_by_name_is_never_read_as_forbidden(ask):
    # the closest rule forbids private use, but 'AdBlue' is listed under 'What you may buy'
    assert ask("Can I use the vehicle card to buy AdBlue?").short_answer != "no"


def test_a_rule_with_a_limit_or_a_question_that_is_no_permission_question_is_left_to_the_ordinary_reading(ask):
    # 'may not exceed two days' depends on how many days are asked about
    assert ask("Can I work remotely on Fridays?").short_answer != "no"
    # 'how are vans booked' asks no permission: the prohibition nearby does not answer it
    assert ask("How are pool vans booked?").short_answer != "no"


def test_without_an_encoder_no_rule_is_read_by_meaning():
    draft = synthesise("Am I allowed to use the van's card to fill up my own car on Saturday?",
                       Understanding(query_class="lookup"), [FLEET, TRAVEL], None, None)
    assert draft.short_answer != "no"
