"""Counting the rows of a table: 'How many people in the who's who are based in Leeds?'."""

from __future__ import annotations

from boundloop.domain.models import Claim, Evidence, Understanding, Verdict
from boundloop.policies.verification import column_sum, grounded_short_answer
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.bridges import missing_links
from boundloop.reasoners.offline.drafting import evidence_units
from boundloop.reasoners.offline.extractive import synthesise
from boundloop.reasoners.offline.reading import read
from boundloop.reasoners.offline.tallies import counted_rows, summed_rows

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


def rooms() -> list[Evidence]:
    return [chunk(0, "# Meeting rooms\n## Leeds rooms\nRoom: Aire; Floor: Level 3; Capacity (people): 20\n"
                  "Room: Wharfe; Floor: Level 2; Capacity (people): 12\nRoom: Calder; Floor: Level 2; Capacity "
                  "(people): 8", "rooms", "Meeting rooms"),
            chunk(1, "## Tilburg rooms\nRoom: Dommel; Building / floor: B, floor 1; Capacity (people): 10\n"
                  "Room: Leij; Building / floor: B, floor 1; Capacity (people): 14\n\nCapacities are fire-safety "
                  "maximums.", "rooms", "Meeting rooms")]


def test_a_combined_figure_is_the_sum_of_the_column_over_the_rows_the_question_names():
    tilburg = Understanding(query_class="lookup", entities=["Tilburg"])
    draft = synthesise("What's the combined capacity of all the Tilburg meeting rooms?", tilburg, rooms(), None)
    assert draft.short_answer == "24"
    assert [c.text.split(";")[0] for c in draft.claims] == ["Room: Dommel", "Room: Leij"]
    sites = [chunk(0, "Site: Leeds; Near misses reported: 14; Lost-time injuries: 0\n"
                   "Site: Tilburg; Near misses reported: 9; Lost-time injuries: 1 (3 days lost)\n\nThanks to both.",
                   "hse", "HSE minutes")]
    both = synthesise("How many near misses were reported across both sites?", LOOKUP.model_copy(
        update={"entities": []}), sites, None)
    assert both.short_answer == "23"


def test_a_table_that_states_its_own_total_is_not_added_up_again():
    costs = [chunk(0, "Item: Trucks; Cost: EUR 400\nItem: Racking; Cost: EUR 100\nItem: Total; Cost: EUR 500\n\n"
                   "Approved.", "capex", "Capex plan")]
    units, rank_of = evidence_units(costs)
    question = "What is the total cost?"
    readings = read(question, expected_answer(question), units, rank_of)
    assert summed_rows(question, readings, [], {"cost"}) == []
    # nor are ranges, nor a column that only shares the word 'total' with the question
    bands = [chunk(0, "Total project cost: GBP 15,000.01 – GBP 75,000; Approver: CFO\nTotal project cost: GBP "
                   "75,000.01 – GBP 250,000; Approver: CEO\n\nAbove that, the Board.", "capex", "Capex policy")]
    assert synthesise("What's the total FY2025 bonus pool?", LOOKUP, bands, None).short_answer is None


def test_the_verifier_keeps_a_sum_only_of_a_column_every_kept_row_states():
    rows = [Claim(text=f"Room: {n}; Capacity (people): {c}", citations=["rooms#1"]) for n, c in (("A", 10), ("B", 14))]
    assert column_sum("24", rows) and not column_sum("25", rows) and not column_sum("EUR 24", rows)
    assert not column_sum("10", rows[:1])  # one row is no sum
    kept = [Verdict(claim=c, supported=True) for c in rows]
    evidence = [chunk(1, "\n".join(c.text for c in rows), "rooms", "Meeting rooms")]
    assert grounded_short_answer("24", kept, evidence) == "24"
    assert grounded_short_answer("26", kept, evidence) is None
