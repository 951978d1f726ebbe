"""Lookups read by structure: the asked column of a row, a person introduced by their role, a letter left out.

Invented documents; each case failed before the change it tests.
"""

from __future__ import annotations

import pytest

from boundloop.domain.sentences import split_sentences
from boundloop.domain.text import stems
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.candidates import candidates
from boundloop.reasoners.offline.drafting import asked
from boundloop.reasoners.offline.typos import respelled_by
from boundloop.reasoners.offline.units import units_of
from tests.reader_fixtures import evidence, short_answer


def test_a_plural_possessive_says_whose_not_what_is_asked():
    """'Harbour Services' cap' asks for the cap (an amount), not for 'Harbour'."""
    expected = expected_answer("What is Harbour Services' DA refund cap per order?")
    assert (expected.kind, expected.head) == ("amount", "cap")
    agents = evidence("agents", "Agent oversight", "Agent: Harbour Services Ltd; Business handled: Freight; DA refund "
                      "cap (per order): £12,000; Renewal: 1 May 2026\nAgent: Quay Logistics; Business handled: "
                      "Storage; DA refund cap (per order): £8,000; Renewal: 1 June 2026")
    assert short_answer("What is Harbour Services' DA refund cap per order?", agents) == "£12,000"


def test_a_person_introduced_by_their_role_is_the_one_asked_for():
    news = evidence("newsletter", "The Quayside - spring issue", "## Driver of the Season\nWell done to Tomas "
                    "Lindqvist, Senior Fleet Handler in Malmo, voted Driver of the Season by his colleagues.")
    assert short_answer("who won driver of the season in the spring issue?", news) == "Tomas Lindqvist"


def test_a_month_is_no_person():
    slides = evidence("slides", "Q2 review - slides", "## Next steps\n- Forklift SOP rewrite (Marek, end Nov)")
    assert short_answer("who's doing the forklift SOP rewrite?", slides) != "Nov"


def test_a_table_typed_without_its_rule_line_is_read_under_its_first_row():
    text = ("ACTIONS\n| # | Action | Owner | Due |\n| 1 | Rewrite forklift SOP | Marek Nowicki | 2026-11-30 |\n"
            "| 2 | Order new signs | Jana Holm | 2026-12-15 |")
    assert split_sentences(text)[1:] == ["1; Action: Rewrite forklift SOP; Owner: Marek Nowicki; Due: 2026-11-30",
                                         "2; Action: Order new signs; Owner: Jana Holm; Due: 2026-12-15"]
    minutes = evidence("minutes", "Ops meeting minutes", "\n".join(split_sentences(text)))  # as ingest writes it
    assert short_answer("who owns the rewrite of the forklift SOP?", minutes) == "Marek Nowicki"


def test_a_table_with_its_rule_line_reads_as_before():
    assert split_sentences("| Name | Ext |\n|---|---|\n| Jana Holm | 2210 |") == ["Name: Jana Holm; Ext: 2210"]
    assert split_sentences("| just | one row |") == ["| just | one row |"]


def test_a_clause_number_is_no_rate():
    question = "What's the overtime rate for working on a Sunday?"
    unit = units_of(evidence("handbook", "Overtime and standby", "3.4 Overtime rates are set out in the Conditions "
                             "of Service handbook, section 7."))[0]
    assert "3.4" not in [c.text for c in candidates(unit, expected_answer(question), question)]


@pytest.mark.parametrize("question, read", [
    ("where's the asembly point at the depot?", "where's the assembly point at the depot?"),
    ("how fast do we acknowlege a claim?", "how fast do we acknowledge a claim?"),  # 'acknowledged' by stem
    ("how much paternity leave do I get?", "how much paternity leave do I get?"),  # a changed letter is no typo
    ("where are the tablet chargers?", "where are the tablet chargers?"),  # a last letter added is a plural
])
def test_a_letter_left_out_is_put_back(question, read):
    guide = evidence("depot-guide", "Depot guide", "Assembly point: the main gate car park. Claims are acknowledged "
                     "within 2 hours. Maternity leave is 26 weeks. Tablets are charged in the office.")
    assert respelled_by(question, [guide]) == read


def test_a_letter_left_out_still_finds_the_answer():
    runbook = evidence("claims-runbook", "Claims intake runbook", "SERVICE STANDARDS\n- Phone claim: logged during "
                       "the call.\n- E-mail claim: acknowledged within 4 working hours of receipt.\n- Web claim: "
                       "auto-acknowledged; triaged within 1 working day.")
    assert short_answer("how fast do we have to acknowlege a claim that comes in by email?", runbook) == \
        "4 working hours"


def test_a_one_letter_prefix_reads_joined_too():
    assert "email" in stems("E-mail FNOL: acknowledged") and "mail" in stems("E-mail")
    assert "wifi" not in stems("Wi-Fi")  # two short parts are not joined (tried and not kept in issue 32)


def test_an_acronyms_plural_reads_as_the_acronym():
    assert {"bsc", "bscs"} <= stems("how often do the BSCs need recertifying?")
    manual = evidence("biosafety-manual", "Biosafety manual", "## 7. Biological safety cabinets\nEvery BSC is "
                      "certified every 12 months by an external certifier.\nFume hoods are checked every 6 months.")
    assert short_answer("how often do the BSCs need to be certified?", manual) == "12 months"


def test_a_code_clipped_from_a_name_is_said_by_the_name():
    from boundloop.domain.models import Understanding
    from boundloop.reasoners.offline.answerability import names_absent
    from boundloop.reasoners.offline.drafting import best_chains

    tips = evidence("wiki-valencia-ramp", "Valencia ramp - tips from the floor", "## Equipment\nTow bars are stored in "
                    "bay K4 (the covered bay at the end of the pier).")
    for question, absent in (("where do we keep the tow bars at VAL?", False),  # 'VAL' clips 'Valencia'
                             ("where do we keep the tow bars at OPO?", True)):
        _, found = best_chains(question, Understanding(query_class="lookup"), [tips])
        assert names_absent(question, found[0]) is absent



@pytest.mark.parametrize("question, read", [
    ("How much did the charity bike ride end up raising?", "How much did the charity bike ride raising?"),
    ("where did the parcel end up?", "where did the parcel end up?"),  # no verb after it: the words stay
])
def test_end_up_asks_nothing_of_its_own(question, read):
    """'end up' weighed as words the passage must hold put a right reading under the answerability threshold."""
    assert asked(question) == read


def test_a_first_row_of_values_is_data_not_a_header():
    assert split_sentences("| Leeds | 07:00 | 19:00 |\n| York | 08:00 | 18:00 |") == [
        "| Leeds | 07:00 | 19:00 |", "| York | 08:00 | 18:00 |"]
