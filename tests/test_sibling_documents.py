"""Rule `each_document_field`: one field asked of every sibling document ('at each of our sites') is a list."""

from __future__ import annotations

import pytest

from boundloop.domain.text import stems
from boundloop.reasoners.offline.planning import plan
from boundloop.reasoners.offline.siblings import field_terms, field_value, single_question
from tests.reader_fixtures import evidence, short_answer

GUIDES = [  # four site guides, each laid out its own way, and a directory that names every site
    evidence("guide-north", "Site guide: North Quay", "Address: 1 Quay Road\nWifi (staff): NQ-STAFF — ask IT.\n"
             "Site manager: Ada Brook"),
    evidence("guide-east", "East Mill - welcome", "**Getting online.** Staff wifi is **EM-CREW**.\n"
             "The old network EM-OLD was switched off in 2024."),
    evidence("guide-west", "West Yard", "Item: Wireless network; Details: WY-NET (key from the gatehouse)\n"
             "Item: Site manager; Details: Ben Ward"),
    evidence("guide-south", "South Depot information", "- **Wifi:** staff network is **SD-OPS** (your usual login)"),
    evidence("directory", "Staff directory", "Name: Brook, Ada; Site: North Quay; Ext.: 2201\n"
             "Name: Ward, Ben; Site: West Yard; Ext.: 2202"),
]


@pytest.mark.parametrize("question, single", [
    ("What are the wifi network names at each of our sites?", "What is the wifi network names at the sites?"),
    ("Who manages each of our three depots?", "Who manages the depots?"),
    ("list the first aid contact for every site please", "what is the first aid contact for the site"),
    ("what are the staff wifi names at all our sites?", "what is the staff wifi names at the sites?"),
    ("Do all staff need a badge?", None),
    ("Who approves expense claims?", None),
    ("Is every laptop encrypted?", "Is the laptop encrypted?"),  # a yes or no: never listed (extractive.py)
])
def test_a_question_asked_of_each_member_of_a_family_is_asked_of_one(question, single):
    assert single_question(question) == single


def test_the_field_asked_is_searched_without_the_family():
    assert field_terms("What are the wifi network names at each of our sites?") == "wifi network"
    searches = plan("What are the wifi network names at each of our sites?", _lookup()).subqueries
    assert any(s.mode == "keyword" and s.text == "wifi network" and s.k == 20 for s in searches)


@pytest.mark.parametrize("text, value", [
    ("Wifi (staff): NQ-STAFF — ask IT.", "NQ-STAFF"),
    ("**Getting online.** Staff wifi is **EM-CREW**.", "EM-CREW"),
    ("Item: Wireless network; Details: WY-NET (key from the gatehouse)", "WY-NET"),
    ("- **Wifi:** staff network is **SD-OPS** (your usual login)", "SD-OPS"),
    ("The old network EM-OLD was switched off in 2024.", None),
])
def test_a_field_value_is_read_from_the_passage_structure(text, value):
    assert field_value(text, set(stems("wifi network"))) == value


def test_each_sibling_document_gives_one_item_and_its_own_citation():
    answer = short_answer("What are the wifi network names at each of our sites?", *GUIDES)
    assert answer is not None
    assert {"NQ-STAFF", "EM-CREW", "WY-NET", "SD-OPS"} <= {item.strip() for item in
                                                            answer.replace(" and ", ", ").split(",")}
    assert "EM-OLD" not in answer


def test_one_document_alone_is_no_list():
    assert short_answer("What are the wifi network names at each of our sites?", GUIDES[0], GUIDES[4]) != "NQ-STAFF"


def _lookup():
    from boundloop.domain.models import Understanding

    return Understanding(query_class="lookup")
