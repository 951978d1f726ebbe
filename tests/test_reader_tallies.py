"""Counting the rows of a table: 'How many people in the who's who are based in Leeds?'."""

from __future__ import annotations

from domain.models import Evidence, Understanding
from reasoners.offline.answer_types import expected_answer
from reasoners.offline.bridges import missing_links
from reasoners.offline.extractive import evidence_units, synthesise
from reasoners.offline.reading import read
from reasoners.offline.tallies import counted_rows

OFFICES = ("Office: Leeds; Address: Unit 4, Aire Park, Leeds; Switchboard: +44 113 496 0500\n"
           "Office: Oslo; Address: Kai 2, Oslo; Switchboard: +47 22 00 00 00")
PEOPLE_1 = ("Name: Ana Lind; Role: CEO; Office: Oslo; Ext.: 2001\nName: Ben Hale; Role: Planner; Office: Leeds; "
            "Ext.: 5001\nName: Cara Moss; Role: HR Advisor; Office: Leeds; Ext.: 5002")
PEOPLE_2 = ("Name: Dev Rao; Role: Driver Lead; Office: Leeds; Ext.: 5003\n"
            "Name: Eve Holt; Role: Buyer; Office: Oslo; Ext.: 2002")
HOLIDAYS = ("Date: 1 January; Holiday: New Year's Day; Leeds: Yes; Oslo: Yes\n"
            "Date: 17 May; Holiday: Constitution Day; Leeds: –; Oslo: Yes")

def chunk(ordinal: int, text: str, doc_id: str = "whos-who", title: str = "Who's Who", hop: int = 1) -> Evidence:
    return Evidence(chunk_id=f"{doc_id}#{ordinal}", doc_id=doc_id, title=title, text=text, score=0.03, hop=hop,
                    found_by=["q0"], rank=1)


LOOKUP = Understanding(query_class="lookup", entities=["Leeds"])
QUESTION = "How many people in the who's who are based in Leeds?"


def test_people_are_counted_by_the_rows_of_the_table_of_names_that_name_the_place():
    held = [chunk(0, OFFICES), chunk(1, PEOPLE_1), chunk(2, PEOPLE_2)]
    draft = synthesise(QUESTION, LOOKUP, held, None)
    assert draft.short_answer == "3"  # the offices table's Leeds row is no person
    assert sorted(c.citations[0] for c in draft.claims) == ["whos-who#1", "whos-who#1", "whos-who#2"]


def test_a_table_held_only_in_part_is_fetched_whole_before_it_is_counted():
    lack = missing_links(QUESTION, LOOKUP, [chunk(2, PEOPLE_2)], set())
    assert not lack.answered and lack.unfinished == ["Who's Who"]
    # once every chunk up to the last held is there and it does not end in a row, nothing more is asked for
    whole = [chunk(0, OFFICES), chunk(1, PEOPLE_1), chunk(2, PEOPLE_2 + "\n\nUpdated monthly by HR.")]
    assert missing_links(QUESTION, LOOKUP, whole, set()).unfinished == []


def test_rows_that_are_not_what_is_counted_are_never_counted():
    held = [chunk(0, OFFICES), chunk(1, PEOPLE_1), chunk(0, HOLIDAYS, "holidays", "Holiday Calendar")]
    asked = "How many parking spaces are there at the Leeds office?"
    units, rank_of = evidence_units(held)
    readings = read(asked, expected_answer(asked), units, rank_of)
    assert counted_rows(asked, readings, ["Leeds"], {"park", "space"}) == []
    assert missing_links(asked, LOOKUP, held, set()).unfinished == []
    # the holiday table is what 'how many holidays' counts: rows marked in the Oslo column
    oslo = Understanding(query_class="lookup", entities=["Oslo"])
    assert synthesise("How many holidays does the Oslo office get?", oslo, held, None).short_answer == "2"
