"""What the asker heard is no part of what is asked; 'at the moment' asks what is in force, not for its words.

Invented documents: a draft proposes 12-hour shifts for a depot whose shifts are 8 hours long.
"""

from __future__ import annotations

from boundloop.reasoners.offline.clauses import without_hearsay
from boundloop.reasoners.offline.spans import spans
from tests.reader_fixtures import evidence, short_answer


def test_a_remark_giving_a_heard_value_is_not_asked():
    assert without_hearsay("how long are the shifts at Ashby now? heard we're going to 12h") == \
        "how long are the shifts at Ashby now?"
    assert without_hearsay("are we buying another company? heard rumours") == \
        "are we buying another company? heard rumours"  # no value heard: the remark stays
    asked = "What is the cut-off? I need it for 3 parcels"  # context, not hearsay: kept
    assert without_hearsay(asked) == asked


def test_the_value_in_force_answers_beside_a_heard_proposal():
    draft = evidence("draft-ashby-shifts", "DRAFT — Proposal: 12-hour shifts for the Ashby depot",
                     "Status: DRAFT, not approved.\n\n## Proposal\n\n"
                     "Shift length; Current (in force): 8 hours; Proposed: 12 hours\n"
                     "Cab time: a 12h shift needs a third break, to be agreed")
    said = short_answer("how long are the shifts at Ashby at the moment? heard we're going to 12h", draft,
                        entities=("Ashby",))
    assert said == "8 hours"


def test_wind_speeds_keep_their_units():
    assert spans("number", "Level: Red; Gust: 18 m/s; Action: stop") == ["18 m/s"]
    assert spans("number", "Wind above 50 kt: lower the stairs") == ["above 50 kt"]


def test_the_most_a_holder_may_do_is_one_bound_whatever_plural_names_the_holder():
    from boundloop.reasoners.offline.answer_types import expected_answer

    asked = expected_answer("What's the maximum a claims handler can settle without referring it up?")
    assert asked.kind == "amount"
    assert expected_answer("What are the claims handlers' names?").kind == "list"

