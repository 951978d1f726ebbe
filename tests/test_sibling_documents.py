"""Rule `each_document_field`: one field asked of every sibling document ('at each of our sites') is a list."""

from __future__ import annotations

import pytest

from boundloop.domain.models import Evidence
from boundloop.domain.text import stem, stems
from boundloop.reasoners.offline.drafting import family_evidence
from boundloop.reasoners.offline.extractive import synthesise
from boundloop.reasoners.offline.field_values import field_value
from boundloop.reasoners.offline.fields import field_asked
from boundloop.reasoners.offline.planning import plan
from boundloop.reasoners.offline.siblings import field_terms, single_question
from boundloop.reasoners.offline.units import units_of
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
    assert read_field(text, "wifi network", "name") == value


def read_field(text: str, field_words: str, kind: str, heading: str = "") -> str | None:
    """The value the last unit of `text` (under `heading`, if given) gives for the field `field_words` asks."""
    field = field_asked(field_words.split(), {stem(w): 1.0 + i for i, w in enumerate(field_words.split())}, kind)
    assert field is not None
    chunk = f"{heading}\n{text}" if heading else text
    unit = units_of(evidence("guide", "Site guide", chunk))[-1]
    found = field_value(unit, field)
    return found.value if found else None


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


def test_a_polite_request_for_each_members_field_is_still_a_list():
    """'Can you list ...' asks for the list; it is no yes/no question about whether the assistant can."""
    answer = short_answer("Can you list the wifi network names at each of our sites?", *GUIDES)
    assert answer is not None and answer not in ("yes", "no")
    assert {"NQ-STAFF", "WY-NET"} <= {item.strip() for item in answer.replace(" and ", ", ").split(",")}


def _ranked(doc_id: str, title: str, text: str, score: float, n: int) -> Evidence:
    return Evidence(chunk_id=f"{doc_id}#{n}", doc_id=doc_id, title=title, text=text, score=score, hop=1,
                    found_by=["q0"], rank=1)


def test_each_documents_chunk_stating_the_field_is_read_though_others_rank_higher():
    """A family's twelfth guide is read, and of each guide the chunk holding the field, not its best-ranked one."""
    guides = []
    for i in range(14):
        title = f"Site guide: Depot {i}"
        guides += [_ranked(f"guide-{i}", title, f"# Depot {i}\nOpening words about depot {i} and its history.",
                           0.05 - i * 0.001, 0),
                   _ranked(f"guide-{i}", title, f"## Key facts\nFirst aid contact: Person{i} Surname (ext. 40{i:02})",
                           0.01, 1)]
    picked = family_evidence(guides, set(stems("first aid contact")))
    assert {e.chunk_id for e in picked if e.chunk_id.endswith("#1")} == {f"guide-{i}#1" for i in range(14)}
    answer = synthesise("Who is the first aid contact at each of our depots?", _lookup(), guides, None).short_answer
    assert answer is not None and all(f"Person{i} Surname" in answer for i in range(12))


def test_a_document_outside_the_family_gives_no_item():
    """A manual naming 'the first contact for any spill' is no site guide: its bold term is no site's contact."""
    manual = evidence("manual", "Biosafety manual",
                      "- **BSO** owns this manual and is the first contact for any spill or exposure.")
    items = [evidence(f"guide-{n}", f"Site guide: {n}", f"First aid contact: {n.title()} Person") for n in
             ("north", "east")]
    readings = [r for r in _family_readings("Who is the first aid contact at each of our sites?", [*items, manual])]
    assert {r.unit.evidence.doc_id for r in readings} == {"guide-north", "guide-east"}


def _family_readings(question: str, documents: list[Evidence]):
    from boundloop.reasoners.offline.drafting import each_document_readings

    single = single_question(question)
    assert single is not None
    return each_document_readings(question, single, documents).readings


@pytest.mark.parametrize("text, heading, value", [
    ("Beatriz Lopes (Training Centre Manager)", "SITE MANAGER", "Beatriz Lopes"),  # the heading is the label
    ("Staff should connect to the Kestrel-SG-Staff network.", "Getting online", "Kestrel-SG-Staff"),  # beside it
    ("Visitors use the guest network.", "Getting online", None),  # no value-shaped word beside the field
    ("Beatriz Lopes runs the centre and chairs the weekly safety walk.", "SITE MANAGER", None),  # too long
])
def test_a_fields_value_from_its_heading_or_beside_its_name(text, heading, value):
    words, kind = ("site manager", "person") if "MANAGER" in heading else ("staff network", "name")
    assert read_field(text, words, kind, f"## {heading}") == value


def test_a_sibling_titled_otherwise_is_one_of_the_family_by_its_file_name():
    """'Head Office — Building Guide' filed as site-guide-head-office is one of 'each of our sites'."""
    manual = evidence("manual", "Biosafety manual",
                      "- **BSO** owns this manual and is the first contact for any spill or exposure.")
    items = [evidence(f"site-guide-{n}", f"Site guide: {n}", f"First aid contact: {n.title()} Person") for n in
             ("north", "east")]
    office = evidence("site-guide-head-office", "Head Office — Building Guide", "First aid contact: Ada Reyes")
    readings = _family_readings("Who is the first aid contact at each of our sites?", [*items, office, manual])
    assert {r.unit.evidence.doc_id for r in readings} == {"site-guide-north", "site-guide-east",
                                                           "site-guide-head-office"}
