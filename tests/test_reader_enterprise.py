"""Reading enterprise documents the reader was never tuned on: versions named by file, strict amount bounds,
identifier columns, duration questions."""

from __future__ import annotations

from functools import partial

import pytest

from boundloop.domain.models import Evidence, Understanding
from boundloop.domain.text import stems
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.bridges import missing_links
from boundloop.reasoners.offline.chains import Chain
from boundloop.reasoners.offline.drafting import best_chains
from boundloop.reasoners.offline.extractive import synthesise
from boundloop.reasoners.offline.ranges import amounts, excludes
from boundloop.reasoners.offline.versions import older_versions
from tests.reader_fixtures import evidence
from tests.reader_fixtures import short_answer as short

WHOS_WHO = ("Name: Marloes de Bruijn; Role: Site Director; Office: Tilburg; Room: T-B1.04; Ext.: 6104; "
            "Email: m.debruijn@example.org\nName: Marta Kowalczyk; Role: Quality Assurance Manager; Office: Gdańsk; "
            "Ext.: 6109; Email: marta.kowalczyk@example.org\nName: Gareth Pennock; Role: Site Director; "
            "Office: Leeds; Room: L2.01; Ext.: 4102; Email: g.pennock@example.org")


def chained(question: str, *documents: Evidence) -> list[Chain]:
    """Every chain the reader reads over these documents, best first (before any answer gate)."""
    return best_chains(question, Understanding(query_class="lookup"), list(documents))[1]


def test_versions_and_drafts_named_by_the_file_are_older():
    old = evidence("travel-expenses-policy-v2-2023", "Travel & Expenses Policy", "x")
    new = evidence("travel-expenses-policy-v3", "Travel & Expenses Policy (v3)", "x")
    draft = evidence("capex-policy-DRAFT-2026", "Capital Expenditure Policy (draft)", "x")
    approved = evidence("capex-policy", "Capital Expenditure Policy", "x")
    other = evidence("holiday-calendar-2024", "Holiday calendar 2024", "x")
    assert older_versions([old, new, draft, approved, other]) == {old.doc_id, draft.doc_id}


def test_the_current_row_wins_over_a_better_worded_superseded_one():
    old = evidence("travel-policy-v2", "Travel Policy", "Destination: London; Hotel limit per night: GBP 175")
    new = evidence("travel-policy-v3", "Travel Policy (v3)", "Destination: London; Hotel cap per night: GBP 195")
    draft = synthesise("What's the hotel limit per night in London?", Understanding(query_class="lookup"),
                       [old, new], None)
    assert draft.short_answer == "GBP 195" and draft.claims[0].citations == ["travel-policy-v3#0"]


def test_more_than_an_amount_is_in_the_band_above_it():
    assert amounts("costing more than EUR 5,000?")[0][1] > 5000 > amounts("under EUR 5,000")[0][1]
    question = "Who signs off travel costing more than EUR 5,000?"
    assert excludes("Trip cost: EUR 1,000.01 to EUR 5,000; Approver: Site Finance Controller", question)
    assert not excludes("Trip cost: Over EUR 5,000; Approver: Chief Financial Officer", question)


def test_one_set_of_strict_bound_words_serves_amounts_and_counts():
    from boundloop.reasoners.offline.quantities import quantities

    # the words of a strict bound are the comparisons' own: amounts and counts read the same ones
    for words in ("beyond", "in excess of", "longer than", "greater than"):
        assert amounts(f"a trip {words} EUR 5,000")[0][1] > 5000
        assert quantities(f"if I work {words} 60 hours", bounds=True)[0][1] > 60
    for words in ("fewer than", "less than", "under", "shorter than"):
        assert amounts(f"a trip {words} EUR 5,000")[0][1] < 5000
        assert quantities(f"if I work {words} 60 hours", bounds=True)[0][1] < 60
    assert amounts("a trip of EUR 5,000")[0][1] == 5000 and quantities("60 hours", bounds=True)[0][1] == 60


def test_an_extension_column_is_not_a_count():
    rows = evidence("rooms", "Rooms", "Name: Ines; Role: Head of People; Room: 3.08; Extension: 4408\n"
                    "Room: Belem auditorium; Capacity: 120 people")
    answer = short("How many people does the Belem auditorium seat?", rows)
    assert answer is not None and "4408" not in answer


def test_function_words_ending_in_er_give_no_verb_stem():
    assert "aft" not in stems("after a trip") and "numb" not in stems("the number")
    assert "own" in stems("the owner of the budget")


def test_an_officer_is_no_office():
    """The stemmer gives 'office' and 'officer' one stem; 'which office' is not said by 'Data Protection Officer'."""
    assert not stems("Role: Data Protection Officer") & stems("Which office is she in?")
    assert stems("the Leeds offices") & stems("Which office is she in?")


def test_how_long_asks_for_a_duration_not_the_word_long():
    unit = evidence("faq", "Claims", "- Submit your expense claim in PeopleHub within 30 days of returning.\n"
                    "- Receipts over EUR 10 are attached to the claim.")
    assert "30 days" in (short("How long do I have to submit an expense claim?", unit) or "")


def test_a_possessive_name_with_a_particle_asks_for_its_noun():
    from boundloop.domain.text import entities
    from boundloop.reasoners.offline.answer_types import expected_answer

    assert entities("What's Marloes de Bruijn's extension?") == ["Marloes de Bruijn"]
    assert expected_answer("What's Marloes de Bruijn's extension?").kind == "phone"
    assert short("What's Marloes de Bruijn's extension?", evidence("contacts", "Who's who", WHOS_WHO)) == "6104"


def test_room_codes_with_letters_are_rooms():
    from boundloop.reasoners.offline.spans import finditer

    text = "Name: H; Room: L3.01; Ext.: 4101; Desk B2-14; Room: T-B1.04"
    assert [text[s:e] for s, e in finditer("room", text)] == ["L3.01", "Desk B2-14", "T-B1.04"]


def test_a_date_range_is_one_answer_unless_its_start_or_end_is_asked():
    row = evidence("closures", "Site closures 2025", "## Tilburg\nDate: 2025-08-04 to 2025-08-08; "
                   "Reason: Summer maintenance shutdown")
    answers = {q: short(q, row) for q in (
        "When is the Tilburg summer shutdown?", "When does the Tilburg summer shutdown start?",
        "When does the Tilburg summer shutdown end?")}
    assert list(answers.values()) == ["2025-08-04 to 2025-08-08", "2025-08-04", "2025-08-08"]


def test_a_time_window_is_one_answer_and_its_start_or_end_when_asked():
    window = evidence("vpn", "VPN", "Maintenance window: the gateways may be unavailable on Sundays between 02:00 and "
                      "04:00 CET for planned maintenance.")
    answers = [short(q, window) for q in (
        "When is the VPN maintenance window?", "When does the VPN maintenance window end?")]
    assert answers == ["Sundays between 02:00 and 04:00 CET", "04:00 CET"]  # the window with the days it holds on


def test_more_currencies_and_whats_without_an_apostrophe():
    from boundloop.reasoners.offline.answer_types import expected_answer

    table = evidence("travel", "Travel allowances", "Destination: Warsaw; Daily meal allowance: 200 PLN; "
                     "Hotel cap per night: 600 PLN")
    assert short("whats the daily meal allowance in Warsaw", table) == "200 PLN"
    assert expected_answer("whats the hotel cap per night in London?").kind == "amount"


def test_how_quickly_asks_for_a_duration_and_a_day_of_every_month_is_a_date():
    from boundloop.reasoners.offline.answer_types import expected_answer

    assert expected_answer("How quickly do drivers have to acknowledge an alarm?").kind == "number"
    faq = evidence("faq", "FAQ", "Salaries are paid on the 25th of each month. Payslips appear two days before.")
    assert short("When do salaries get paid?", faq) == "the 25th of each month"


def test_a_cell_without_a_number_is_no_extension():
    rows = evidence("offices", "Offices", "Office: Leeds; Switchboard: +44 113 496 0500; Extension range: 5xxx\n"
                    "Name: Hanneke Bos; Role: Financial Controller; Ext.: 2214")
    assert short("What's the extension of the Financial Controller?", rows) == "2214"


def test_a_limit_on_the_quantity_asked_about_decides_yes_or_no():
    from boundloop.reasoners.offline.quantities import fits

    escort = "On the production floor there may be no more than 6 visitors per escort."
    assert fits("Can I take eight visitors onto the floor with one escort?", escort) is False
    assert fits("Can I take four visitors onto the floor with one escort?", escort) is True
    assert fits("Is first class OK for a five-hour train journey?", "First class only when the journey is longer "
                "than 4 hours.") is True
    assert fits("Can I expense a taxi?", escort) is None
    rule = evidence("faq", "Staff FAQ",
                    "### Can I carry over unused holiday days?\nYes, up to 5 days, used by 31 March.")
    answers = [short(q, rule) for q in (
        "Can I carry over 7 unused holiday days?", "Can I carry over 3 unused holiday days?")]
    assert answers == ["No: the limit is 5 days", "Yes: the limit is 5 days"]  # the verdict says its limit


def test_the_clause_that_asks_decides_what_is_asked():
    from boundloop.reasoners.offline.answer_types import expected_answer

    assert expected_answer("I'm starting in Gdansk next week - who gives me my ID badge?").kind == "person"
    assert expected_answer("The run totals EUR 310,000. In which room does its approver sit?").kind == "room"
    assert expected_answer("What is the extension of the Financial Controller?").kind == "phone"


def test_a_list_under_a_named_heading_counts_the_measure_cell_and_never_money():
    rooms = evidence("rooms", "Meeting rooms", "## Leeds meeting rooms (people they hold)\n"
                     "Room: Aire; Floor: Level 3; Capacity (people): 20\n"
                     "Room: Calder; Floor: Level 2; Capacity (people): 8\n"
                     "Room: Training Room 1; Floor: Level 0; Capacity (people): 16\n"
                     "## Tilburg rooms\nRoom: Leij; Floor: B1; Capacity (people): 14\n"
                     "## Catering\nItem: Hot buffet lunch; Leeds: GBP 13.50; Tilburg: EUR 15.00")
    assert short("Which Leeds meeting rooms hold at least 12 people?", rooms) == "Aire and Training Room 1"


MATRIX = ("## Calendar\nDate: 1 January; Holiday: New Year's Day; Rotterdam: Yes; Leeds: Yes; Gdansk: Yes\n"
          "Date: 18 April; Holiday: Good Friday; Rotterdam: –; Leeds: Yes; Gdansk: –\n"
          "Date: 29 May; Holiday: Ascension Day; Rotterdam: Yes; Leeds: –; Gdansk: –\n"
          "Date: 25 December; Holiday: Christmas Day; Rotterdam: Yes; Leeds: Yes; Gdansk: Yes")


def test_a_table_marked_per_column_answers_yes_no_lists_and_counts():
    table = evidence("holidays", "Public holiday calendar 2025", MATRIX)
    assert short("Is Ascension Day a public holiday at the Leeds office?", table) == "no"
    assert short("Is Good Friday a public holiday at the Leeds office?", table) == "yes"
    assert short("Which public holidays are days off in both Leeds and Gdansk?", table) == \
        "New Year's Day and Christmas Day"
    assert short("How many public holidays does the Rotterdam office get?", table) == "3"


def test_who_and_what_is_their_extension_asks_for_the_extension():
    from boundloop.reasoners.offline.answer_types import expected_answer

    assert expected_answer("Who do I contact to book the hall, and what's their extension?").kind == "phone"
    assert expected_answer("Who approves it and what is their email address?").kind == "email"


def test_names_without_accents_and_questions_that_are_only_a_noun_phrase():
    from boundloop.reasoners.offline.answer_types import expected_answer

    assert stems("Gdansk") == stems("Gdańsk") and stems("Wrobel") == stems("Wróbel")
    assert expected_answer("email address of the QA manager in Gdansk?").kind == "email"
    assert short("email address of the quality assurance manager in Gdansk?", evidence("contacts", "Who's who",
                 WHOS_WHO)) == "marta.kowalczyk@example.org"


def test_a_speed_limit_is_a_measure_and_a_change_answers_with_its_new_value():
    from boundloop.reasoners.offline.answer_types import expected_answer

    assert expected_answer("What's the forklift speed limit in the warehouse?").kind == "number"
    minutes = evidence("minutes", "Safety minutes", "Decision: the forklift speed limit in the warehouse is reduced "
                       "from 10 km/h to 8 km/h, with effect from 1 April 2025.")
    assert short("What's the forklift speed limit in the warehouse?", minutes) == "8 km/h"


def test_what_an_acronym_stands_for_is_the_documents_spelling():
    glossary = evidence("glossary", "Glossary", "- LOTO: Lock-Out Tag-Out.\n- CSO: Chief Sustainability Officer. "
                        "Owns our energy targets.\nTerm: OR; Meaning: Ondernemingsraad (works council)")
    policy = evidence("policy", "Permits", "A Permit to Work (PTW) is required for hot works.")
    answers = [short(q, glossary, policy) for q in (
        "What does LOTO mean?", "What does CSO stand for?", "What's the OR?", "What is PTW short for?")]
    assert answers == ["Lock-Out Tag-Out", "Chief Sustainability Officer", "Ondernemingsraad (works council)",
                       "Permit to Work"]


def test_a_question_asking_for_a_bound_takes_the_bound_of_that_side():
    from boundloop.reasoners.offline.answer_types import expected_answer
    assert expected_answer("What's the most a Site Director can approve on their own?").kind == "amount"
    assert expected_answer("What's the max per transaction on a fuel card?").kind == "amount"
    assert expected_answer("What's the longest a night shift can be?").kind == "number"
    assert expected_answer("What is the most popular film?").kind == "name"
    rule = evidence("working-time", "Working time", "A night shift (any shift with at least 3 hours between 23:00 and "
                    "06:00) may not exceed 10 hours including overtime.")
    assert short("What's the longest a night shift can be, overtime included?", rule) == "10 hours"


def test_pence_are_an_amount_and_a_national_phone_number_counts_nothing():
    mileage = evidence("expenses", "Expenses", "Own car. Mileage on Trust business is reimbursed at 45p per mile.")
    assert short("What is the mileage rate per mile for my own car?", mileage) == "45p per mile"
    from boundloop.reasoners.offline.spans import spans
    assert spans("phone", "From outside the Trust ring 01632 552222.") == ["01632 552222"]
    assert "01632" not in spans("number", "ring 01632 552222")


def test_a_question_of_no_known_kind_takes_the_cell_of_the_column_it_names():
    pay = evidence("unsocial-hours", "Unsocial hours pay", "Band: Band 2; Weekday nights: 44%; Sundays and bank "
                   "holidays: 88%\nBand: Band 3; Weekday nights: 37%; Sundays and bank holidays: 74%")
    assert short("sunday enhancement for a band 3?", pay) == "74%"


def test_an_acronym_the_evidence_both_uses_and_spells_meets_the_spelling_too():
    rows = evidence("fuel-cards", "Fuel cards", "Country: Netherlands; Limit per transaction: €400; Max. transactions "
                    "per day: 2\nCountry: United Kingdom; Limit per transaction: £350; Max. transactions per day: 2")
    office = evidence("offices", "Offices", "Office: Leeds; Address: Unit 4, Aire Valley Park, Leeds, UK")
    assert short("What's the max per transaction on a fuel card in the UK?", rows, office) == "£350"


def test_contractions_typed_without_apostrophes_are_no_search_terms():
    from boundloop.domain.words import content_terms
    assert content_terms("whats the fine if I dont have a permit, isnt it") == ["fine", "permit"]
    assert "haven" in content_terms("University of New Haven")


def test_a_question_opening_with_a_preposition_does_not_name_it():
    from boundloop.domain.text import entities
    assert entities("Above what trip cost does the CFO have to approve travel?") == ["CFO"]
    assert entities("Who directed Before Sunrise?") == ["Before Sunrise"]


def test_a_range_holding_the_number_asked_about_is_its_condition_not_its_answer():
    leave = evidence("study-leave", "Study leave", "Staff in bands 2 to 5 can be granted up to five days' study leave "
                     "per year. Bands 6 and above can be granted up to ten days a year.")
    assert short("how many study leave days can a band 5 get a year", leave) == "five days"


def test_a_spelled_count_of_the_asked_for_noun_is_offered_beside_digits():
    uniform = evidence("uniform", "Uniform policy", "Full-time staff receive four sets of uniform when they start; "
                       "part-time staff working under 22.5 hours a week get three sets.")
    assert short("how many sets of uniform do full-timers get when they start", uniform) == "four sets"


def test_a_question_opening_with_a_condition_is_asked_by_its_last_clause():
    from boundloop.reasoners.offline.answer_types import expected_answer
    assert expected_answer("if a london hotel is £140 a night will expenses cover it").kind == "yes_no"
    assert expected_answer("If I leave in June how much do I pay back?").kind == "amount"
    assert expected_answer("When does the office open?").kind == "date"


def test_a_cap_on_an_amount_answers_yes_or_no_for_the_amount_given():
    from boundloop.reasoners.offline.ranges import within_cap
    cap = "The maximum the Trust will pay for a hotel is: London: £150 per night, including breakfast"
    assert within_cap("will expenses cover a £140 London hotel?", cap) is True
    assert within_cap("can I book a £160 hotel in London?", cap) is False
    assert within_cap("can I claim £110?", "Total value of claim: Up to £250; Approver: Line manager") is None


def test_no_cost_and_free_of_charge_deny_nothing():
    rule = evidence("parking", "Parking policy", "Registered volunteers park free of charge; their permit is issued "
                    "at no cost.")
    assert short("do volunteers get free parking?", rule) == "yes"


def test_a_rule_for_two_sites_leads_to_the_row_of_the_site_asked_about():
    rule = evidence("on-call-pay", "On-call and overtime", "At Calderbrook General, overtime is approved by the Duty "
                    "Manager. At Northgate and at Ellerby, overtime is approved by the Site Manager for that site. "
                    "Overtime is paid at time and a half.")
    directory = evidence("staff-directory", "Staff directory", "Name: Catriona Bell; Role: Site Manager; "
                         "Site: Ellerby; Extension: 5100\nName: Owen Threlfall; Role: Site Manager; Site: Northgate; "
                         "Extension: 4100\n"
                         "Name: Bernadette Quinn; Role: Facilities Manager; Site: Northgate; Extension: 4150\n"
                         "Name: Ravi Chaudhry; Role: Facilities Manager; Site: Ellerby; Extension: 5130")
    found = chained("What's the extension for whoever signs off overtime at Northgate?", rule, directory)
    assert found[0].answer == "4100" and len(found[0].readings) == 2


def test_a_glossary_laid_out_in_columns_spells_the_acronym_asked_about():
    from boundloop.domain.models import Understanding as U
    from boundloop.reasoners.offline.planning import plan
    glossary = evidence("glossary", "Glossary of acronyms", "MAST      Mandatory and Statutory Training - the core "
                        "training everyone must complete\nPCN       Parking Charge Notice")
    assert short("whats MAST training", glossary) == "Mandatory and Statutory Training"
    searches = plan("whats MAST training", U(query_class="lookup", entities=["MAST"])).subqueries
    assert any(q.mode == "keyword" and q.text.startswith("MAST glossary") for q in searches)


ROOMS = ("Room: Cavendish Suite; Site: Calderbrook General; Seats: 24\nRoom: Dales Room; Site: Calderbrook General; "
         "Seats: 14\nRoom: Quiet Room 3; Site: Calderbrook General; Seats: 4\nRoom: Library Room; Site: Calderbrook "
         "General; Seats: 12\nRoom: Beck Room; Site: Northgate; Seats: 16\nRoom: NG-G14; Site: Northgate; Seats: 6")


def test_the_biggest_row_by_its_measure_among_the_rows_of_the_place_named():
    rooms = evidence("meeting-rooms", "Meeting rooms", ROOMS)
    assert short("What's the biggest meeting room at Northgate?", rooms) == "Beck Room"
    assert short("What's the smallest meeting room at Calderbrook General?", rooms) == "Quiet Room 3"


def test_a_bounded_count_counts_the_rows_of_a_place_typed_in_lower_case():
    from boundloop.reasoners.offline.casing import cased
    rooms = evidence("meeting-rooms", "Meeting rooms", ROOMS)
    assert cased("how many rooms at calderbrook general", [rooms]) == "how many rooms at Calderbrook General"
    assert cased("How many rooms at calderbrook general", [rooms]) == "How many rooms at Calderbrook General"
    assert cased("How many rooms at calderbrook General", [rooms]) == "How many rooms at calderbrook General"
    draft = synthesise("how many meeting rooms at calderbrook general seat 12 or more people",
                       Understanding(query_class="lookup"), [rooms], None)
    assert draft.short_answer == "3" and len(draft.claims) == 3


def test_a_count_of_the_kept_claims_is_grounded_by_them():
    from boundloop.domain.models import Claim, Verdict
    from boundloop.policies.verification import grounded_short_answer
    rows = evidence("rooms", "Rooms", "Room: A; Seats: 14\nRoom: B; Seats: 24")
    kept = [Verdict(claim=Claim(text=t, citations=["rooms#0"]), supported=True) for t in ("A", "B")]
    assert grounded_short_answer("2", kept, [rows]) == "2"
    assert grounded_short_answer("3", kept, [rows]) is None


def test_a_bridge_already_searched_with_its_terms_is_searched_again_by_its_name_alone():
    from boundloop.domain.models import Assessment, Gap, SubQuery
    from boundloop.reasoners.offline.planning import refine
    done = [SubQuery(id="q0", text="which office is the person who approves parking permits in", mode="hybrid",
                     purpose="the whole question", k=3),
            SubQuery(id="r1.2", text="Parking and Security Manager office", mode="hybrid",
                     purpose="bridge entity: Parking and Security Manager", k=2)]
    gap = Gap(kind="bridge", description="follow 'Parking & Security Manager' for office", terms=["office"],
              bridge_entities=["Parking & Security Manager"])
    step = refine("which office is the person who approves parking permits in", done, Assessment(gap=gap), 2)
    assert [(q.text, q.mode) for q in step.subqueries] == [("Parking & Security Manager", "keyword")]


def test_chains_read_an_ampersand_as_and():
    from boundloop.reasoners.offline.unit_names import names_of
    assert names_of("approved by the Parking and Security Manager") == names_of("the Parking & Security Manager")


def test_opening_hours_laid_out_in_columns_read_under_their_label():
    from boundloop.reasoners.offline.spans import spans
    assert spans("time", "Saturday            9am - 1pm") == ["9am - 1pm"]
    assert spans("time", "hot lunch 12 noon - 2pm, evening") == ["12 noon - 2pm"]
    hours = evidence("catering", "Staff restaurants", 'Calderbrook General - "The Larder" staff restaurant\n'
                     "Monday to Friday; 7:30am - 7pm\nSaturday & Sunday; 8am - 2pm\n"
                     'Northgate - "The Coffee Hub" Ground floor, by the main entrance\n'
                     "Monday to Friday; 8am - 4pm\nSaturday; 9am - 1pm\nSunday; closed")
    draft = synthesise("what time does the northgate coffee hub open on a saturday",
                       Understanding(query_class="lookup"), [hours], None)
    assert draft.short_answer == "9am - 1pm"
    claim = draft.claims[0].text
    assert claim.startswith('Northgate - "The Coffee Hub"') and "Saturday: 9am - 1pm" in claim


def test_an_acronym_with_its_spelling_beside_it_is_stated_by_the_spelling():
    from boundloop.reasoners.offline.answerability import entity_missing, names_absent
    pay = evidence("executive-pay", "Executive remuneration", "Post: Chief Information Officer; Post holder: Rebecca "
                   "Lindqvist; Basic salary 2025/26: £131,250\nPost: Chief Nurse; Post holder: Angela Foxton; Basic "
                   "salary 2025/26: £143,600")
    found = chained("what's the basic salary of the CIO (chief information officer)?", pay)
    cio = next(c for c in found if "Information" in c.last.unit.plain)
    assert not names_absent("what's the basic salary of the CIO (chief information officer)?", cio)
    assert entity_missing("what's the basic salary of the CIO (chief information officer)?", cio) == 0.0
    assert names_absent("what's the basic salary of the CTO (chief technology officer)?", cio)


def test_a_passage_gives_a_minimum_length_in_other_words():
    from boundloop.reasoners.offline.units import implied
    assert {"minimum", "length"} <= implied("Passwords must be at least twelve (12) characters long.")
    policy = evidence("it-policy", "IT acceptable use", "Passwords must be at least twelve (12) characters long. "
                      "Requests should be made at least twice the length of the leave requested.")
    found = chained("minimum password length?", policy)
    assert found[0].answer == "12"


def test_a_band_of_durations_holding_the_length_given_answers_for_it():
    from boundloop.reasoners.offline.quantities import banded, quantities
    question = "I've been here three years. How much notice do I have to give if I resign?"
    assert banded("2 years up to 5 years: 2 months", quantities(question)) == (["three"], False)
    assert banded("More than 5 years: 3 months", quantities(question)) == ([], True)
    faq = evidence("staff-faq", "Staff FAQ", "It depends on your length of service on the date you give notice:\n"
                   "- Less than 2 years: 1 month\n- 2 years up to 5 years: 2 months\n- More than 5 years: 3 months")
    found = chained(question, faq)
    assert found[0].answer == "2 months"


def test_how_long_one_has_to_do_something_is_the_limit_not_the_consequence():
    policy = evidence("travel-expenses", "Travel and expenses", "Claims submitted more than 90 days after return will "
                      "not be paid. Submit your expense claim in PeopleHub within 30 days of returning.")
    found = chained("How long do I have to submit my expense claim after a trip?", policy)
    assert found[0].answer == "30 days"


def test_a_clipped_word_is_read_in_the_passage_that_writes_it_in_full():
    policy = evidence("it-policy", "IT acceptable use", "Requests for local administrator rights on any Trust device "
                      "must be approved by the Chief Information Officer.\nPersonal USB devices are blocked.")
    found = chained("Who has to OK local admin rights on a laptop?", policy)
    assert "administrator" in found[0].last.unit.plain and found[0].coverage > 0.5


def test_a_question_about_someone_follows_the_role_a_passage_names_first():
    from boundloop.reasoners.offline.bridges import names_in
    policy = evidence("it-policy", "IT acceptable use", "Requests for local administrator rights on any Trust device "
                      "must be approved by the Chief Information Officer.")
    question = "Who has to OK local admin rights on a laptop, and which room do they sit in?"
    found = chained(question, policy)
    assert names_in(found[0].last, question)[0] == "Chief Information Officer"


def test_where_someones_office_is_and_what_number_to_ring_ask_for_a_room_and_a_phone():
    from boundloop.reasoners.offline.answer_types import expected_answer
    assert expected_answer("where's the office of the person who authorises a £3,000 claim").kind == "room"
    assert expected_answer("Where is the Leeds office?").kind == "place"
    assert expected_answer("need replacement uniform, what number do i ring for the person who orders them"
                           ).kind == "phone"
    assert expected_answer("What number of staff work in Leeds?").kind == "number"


def test_the_value_beside_the_noun_asked_for_breaks_a_tie(monkeypatch):
    from boundloop.reasoners.offline import reading
    from boundloop.reasoners.offline.answer_types import expected_answer
    from boundloop.reasoners.offline.drafting import evidence_units
    pay = evidence("payroll", "Payroll", "Pay day is the 27th of each month.")
    question = "what day of the month do we get paid"
    units, rank_of = evidence_units([pay])

    def score() -> float:
        return reading.read(question, expected_answer(question), units, rank_of)[0].score

    with_bonus = score()
    monkeypatch.setattr(reading, "HEADED_FIT", 0.0)
    assert with_bonus == pytest.approx(score() + 0.03)


def test_a_row_covering_little_of_the_question_does_not_answer_it(monkeypatch):
    from boundloop.reasoners.offline import drafting, extractive
    from boundloop.reasoners.offline.similarity import EncoderSimilarity
    pay = evidence("executive-pay", "Executive remuneration 2025/26",
                   "Post: Chief Nurse; Post holder: Angela Foxton; Basic salary 2025/26: £143,600\n"
                   "Post: Director of Finance; Post holder: Gareth Pryce; Basic salary 2025/26: £148,000")
    question = "what's the cap on nursing agency spend for 25/26"
    found = chained(question, pay)
    assert found[0].answer == "£143,600" and found[0].coverage < 0.25  # a salary row, read for a spending cap

    def drafted() -> str | None:
        return extractive.synthesise(question, Understanding(query_class="lookup"), [pay], None,
                                     EncoderSimilarity()).short_answer

    monkeypatch.setattr(drafting, "ANSWER_FLOOR", found[0].coverage + 0.01)
    assert drafted() is None
    monkeypatch.setattr(drafting, "ANSWER_FLOOR", 0.0)
    assert drafted() == "£143,600"


def test_an_acronym_spelled_like_a_stopword_is_still_searched_for(tmp_path):
    from boundloop.retrieval.documents import Document
    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.query_terms import search_terms
    from boundloop.retrieval.search import hybrid_search
    from boundloop.retrieval.sqlite_index import SqliteIndex
    from tests.conftest import HashEncoder, access
    assert search_terms("What's the OR at Tilburg?") == ["tilburg", "or"]
    assert search_terms("what is the or at tilburg") == ["tilburg"]
    index = SqliteIndex(tmp_path / "index", create=True)
    ingest(index, HashEncoder(), [
        Document(doc_id="glossary", title="Glossary", text="OR: ondernemingsraad, the works council.", acl=("staff",)),
        Document(doc_id="site", title="Site guide", text="Tilburg parking is behind the main gate.", acl=("staff",)),
    ], show_progress=False)
    hits = hybrid_search(index, HashEncoder(), "What's the OR?", access("staff"), k=2, mode="keyword")
    assert [h.doc_id for h in hits] == ["glossary"]
    index.close()


def test_denying_the_opposite_of_what_is_asked_says_yes():
    note = evidence("closures", "Site closure days 2025", "Note: Good Friday (18 April 2025) is not a closure day in "
                    "Tilburg; the site operates normally.")
    assert short("Is the Tilburg site open on Good Friday 2025?", note) == "yes"
    closed = evidence("closures", "Site closure days 2025",
                      "The Tilburg site is closed on Good Friday (18 April 2025).")
    assert short("Is the Tilburg site open on Good Friday 2025?", closed) != "yes"


def test_a_value_at_the_rate_asked_for_beats_one_at_another_rate():
    from boundloop.reasoners.offline.measures import rate_of as _rate

    row = "Destination: Tilburg; Daily meal allowance: EUR 50; Hotel cap per night: EUR 130"
    assert _rate(row, row.index("EUR 50"), 6) == "day" and _rate(row, row.index("EUR 130"), 7) == "night"
    assert _rate("Tilburg: EUR 2.40 per hour", 9, 8) == "hour"
    travel = evidence("travel", "Travel rates", "Destination: Tilburg & North Brabant; Daily meal allowance: EUR 50; "
                      "Hotel cap per night: EUR 130")
    shifts = evidence("shifts", "Shift pay", "A night allowance is paid for every hour worked between 22:00 and 06:00: "
                      "Tilburg: EUR 2.40 per hour")
    assert "2.40" in (short("How much is the night allowance per hour at Tilburg?", travel, shifts) or "")


def test_a_count_is_not_the_amount_asked_for():
    parking = evidence("parking", "Parking", "Car park: Multi-storey (Levels 2–5); Staff spaces: 410; Permit colour: "
                       "Green; Notes: Levels 0 and 1 are patients & visitors only")
    fines = evidence("fines", "Parking rules", "Staff parked in patient or visitor spaces may receive a Parking Charge "
                     "Notice (PCN) of £40.")
    assert short("whats the fine if I park in a patient space", parking, fines) == "£40"


def test_two_questions_typed_without_a_question_mark_ask_the_second():
    assert expected_answer("who's the estates on-call on Saturday and what's their bleep number").kind == "phone"
    assert expected_answer("What is the pager number for the duty manager?").kind == "phone"


def test_a_value_another_document_changes_is_answered_with_its_new_value():
    policy = evidence("policy", "Parking Policy 2025", "ANPR cameras will go live in the Northgate staff car park on "
                      "2 June 2025. From that date, unregistered vehicles will be identified automatically.")
    minutes = evidence("minutes", "Committee minutes 14 May", "Decision: the go-live of ANPR in the Northgate staff "
                       "car park is postponed from 2 June 2025 to Monday 7 July 2025. Until then security staff check "
                       "permits.")
    draft = synthesise("When do the ANPR cameras go live at Northgate?", Understanding(query_class="lookup"),
                       [policy, minutes], None)
    assert draft.short_answer == "Monday 7 July 2025"
    # the old value is context in the change, never a claim of its own; the result names it in `conflicts`
    assert {c.citations[0] for c in draft.claims} == {"minutes#0"}
    assert draft.conflicts[0].values == ["Monday 7 July 2025", "2 June 2025"]
    assert draft.conflicts[0].chunk_ids == ["minutes#0", "policy#0"] and draft.conflicts[0].reason == "changed"
    # a change of another value on another subject leaves the answer as read
    awards = evidence("awards", "Committee minutes 14 May", "Decision: the staff awards evening moves from 2 June "
                      "2025 to 9 June 2025, same venue.")
    assert short("When do the ANPR cameras go live at Northgate?", policy, awards) == "2 June 2025"
    # a change is no range: the date it was moved from is not part of the answer
    assert short("When does ANPR go live in the Northgate staff car park?", minutes) == "Monday 7 July 2025"


def test_a_time_window_written_as_one_span_keeps_its_days_too():
    desk = evidence("desk", "Service Desk", "The Service Desk is staffed Monday to Friday 07:00–20:00 CET.")
    assert short("When is the Service Desk staffed?", desk) == "Monday to Friday 07:00–20:00 CET"


def test_part_of_a_hyphenated_name_is_no_code():
    from boundloop.reasoners.offline.spans import PATTERNS

    assert [m.group() for m in PATTERNS["code"].finditer("Visitors: VB-Guest-LDS - ask reception")] == []
    assert [m.group() for m in PATTERNS["code"].finditer("the Guest-Net router")] == ["Guest-Net"]


def test_an_acronym_a_rule_states_covers_the_spelling_a_glossary_gives_it():
    rule = evidence("travel", "Travel Policy", "Rail: standard class. First class only when the single journey is "
                    "longer than 4 hours and your SFC has approved it in advance.")
    glossary = evidence("glossary", "Glossary", "- **SFC**: Site Finance Controller. There is one at each site.")
    question = "Is first-class rail OK for a five-hour train journey if my SFC approves it in advance?"
    understanding = Understanding(query_class="lookup", entities=["SFC"])
    said = "Yes: the threshold is 4 hours"  # 'longer than 4 hours': the bound a five-hour journey passes
    assert synthesise(question, understanding, [rule], None).short_answer == said
    # the glossary spells SFC out in the question as read: the rule, which says 'SFC', still says all of it
    assert synthesise(question, understanding, [rule, glossary], None).short_answer == said


def test_amounts_written_with_k_or_m_are_thousands_and_millions():
    assert [a[1] for a in amounts("a €120k contract and a £1.2m budget, €5 m in all")] == [120_000, 1_200_000,
                                                                                           5_000_000]


def test_the_row_naming_the_doer_of_the_questions_verb_leads_the_chain():
    limits = evidence("limits", "Delegation of Authority", "Total value (excl. VAT): Up to €15,000; Approver: "
                      "Department head\nTotal value (excl. VAT): €15,000.01 – €75,000; Approver: Financial "
                      "Controller\n\nPurchases above €15,000 require at least three written quotes, collected by "
                      "the Procurement Lead.")
    people = evidence("people", "Who's Who", "Name: Hanneke Bos; Role: Financial Controller; Ext.: 2214\n"
                      "Name: Tomasz Zielinski; Role: Procurement Lead; Ext.: 6105")
    question = "What's the extension of the person who has to approve a €40,000 purchase order?"
    assert short(question, limits, people) == "2214"
    lack = missing_links(question, Understanding(query_class="multi_hop"), [limits], set())
    assert lack.links[:1] == ["Financial Controller"]  # evaluate follows the approver, not the quote collector


def test_an_address_of_the_kind_asked_in_a_row_covering_the_question_answers_it(monkeypatch):
    from boundloop.reasoners.offline import drafting
    from boundloop.reasoners.offline.similarity import EncoderSimilarity

    policy = evidence("leave", "Leave Policy", "All leave is requested in Tidewater, our HR system.")
    catalogue = evidence("systems", "IT Systems Catalogue", "System: Tidewater; What it is for: HR system: annual "
                         "leave requests, payslips; URL: https://tidewater.example\nSystem: Compass; What it is "
                         "for: IT portal: tickets, access requests; URL: https://compass.example")
    monkeypatch.setattr(drafting, "probability", lambda *args: 0.0)  # the model hesitating, as between two rows
    ask = partial(synthesise, understanding=Understanding(query_class="multi_hop"), evidence=[policy, catalogue],
                  assessment=None, similarity=EncoderSimilarity())
    assert ask("What is the web address of the system I use to request annual leave?").short_answer == \
        "https://tidewater.example"
    # a row covering less of the question is left to the model
    assert ask("What is the web address of the system for booking desks in the Lisbon office?").short_answer is None


def test_i_ve_and_i_m_are_no_names_and_leave_no_words_behind():
    from boundloop.domain.text import entities

    question = "I've been here three years. How much notice do I have to give if I resign?"
    assert entities(question) == [] and entities("I'm new. Where's the canteen?") == []
    assert {"ve", "ll", "re"}.isdisjoint(stems(f"{question} We'll see, they're here."))
    faq = evidence("faq", "Staff FAQ", "### What notice do I have to give if I resign?\nIt depends on your length of "
                   "service:\n- Less than 2 years: 1 month\n- 2 years up to 5 years: 2 months\n- More than 5 years: "
                   "3 months")
    assert short(question, faq) == "2 months"


def test_a_place_no_row_names_is_read_against_the_row_for_everywhere_else():
    hotels = evidence("travel", "Travel Policy", "## Hotels\nThe most you can claim for a hotel is:\n"
                      "- **London:** £150 per night, including breakfast;\n- **anywhere else in the UK:** £95 per "
                      "night, including breakfast.\n\nBook through the travel desk.")

    def said(question: str, place: str) -> str | None:
        return synthesise(question, Understanding(query_class="lookup", entities=[place]), [hotels],
                          None).short_answer

    assert said("Can I claim £110 for a hotel night in Leeds?", "Leeds") == "No: the limit is £95"
    assert said("Can I claim £90 for a hotel night in Leeds?", "Leeds") == "Yes: the limit is £95"
    assert said("Can I claim £140 for a hotel night in London?", "London") == "Yes: the limit is £150"
    assert said("Can I claim £160 for a hotel night in London?", "London") == "No: the limit is £150"


def test_a_semicolon_inside_a_cell_is_no_new_field_and_a_level_is_a_floor():
    from boundloop.reasoners.offline.units import cells_of

    row = "Room: Rowan Room; Location: Level 1; Seats: 12; Notes: Next to the staff room; can be noisy at lunchtime"
    assert [c.header for c in cells_of(row)] == ["Room", "Location", "Seats", "Notes"]
    assert cells_of(row)[-1].value == "Next to the staff room; can be noisy at lunchtime"
    # a field whose header is too long to read as one still stands apart
    long = "Band: Band 3; Weekday nights (20:00–06:00) and all of Saturday: 37%; Sundays and bank holidays: 74%"
    assert cells_of(long)[0] == ("Band", "Band 3")
    rooms = evidence("rooms", "Meeting rooms", f"## Ellerby\nRoom: Ash Room; Location: Ground floor; Seats: 8\n{row}")
    assert short("which floor is the rowan room at ellerby on", rooms) == "Level 1"


def test_words_for_approving_say_one_another():
    from boundloop.reasoners.offline.units import implied

    assert {"okay", "ok", "approv", "sign"} <= implied("The CIO may authorise local admin rights.")
    assert {"okay", "authoris"} <= implied("Requests are signed off by the CIO.")
    assert not implied("The CIO owns the laptop fleet.")


def test_a_person_asked_for_is_named_in_full(monkeypatch):
    from boundloop.reasoners.offline import reading
    from boundloop.reasoners.offline.answer_types import expected_answer
    from boundloop.reasoners.offline.drafting import evidence_units
    founders = [evidence("short", "Club history", "The rowing club was founded in 1921 by Marlow."),
                evidence("full", "Club records", "The rowing club was founded in 1921 by Anna Marlow.")]
    units, rank_of = evidence_units(founders)

    def fits(question: str) -> dict[str | None, float]:
        return {r.answer: r.fit for r in reading.read(question, expected_answer(question), units, rank_of)}

    by_whom, character = fits("Who founded the rowing club?"), fits("What character founded the rowing club?")
    monkeypatch.setattr(reading, "ONE_WORD_PENALTY", 0.0)
    unpenalised = fits("Who founded the rowing club?")
    assert unpenalised["Marlow"] - by_whom["Marlow"] == pytest.approx(0.2)
    assert unpenalised["Anna Marlow"] == by_whom["Anna Marlow"]
    # a character often goes by one name
    assert fits("What character founded the rowing club?") == character


def test_a_name_another_passage_gives_beside_the_answer_is_vouched_for():
    from boundloop.reasoners.offline.answerability import names_absent
    from boundloop.reasoners.offline.units import units_of
    reef = evidence("reef", "Coral Flats", 'Coral Flats is a town in the animated series "Tidepool Tales".')
    game = evidence("game", "Robofrenzy", 'Robofrenzy was created by the writers of "Tidepool Tales".', hop=2)
    asked = "Which series, written by the creators of Robofrenzy, is set in Coral Flats?"
    best = chained(asked, reef)[0]
    assert best.answer == "Tidepool Tales" and names_absent(asked, best)
    assert not names_absent(asked, best, units_of(game, False))
    # a passage that does not name the answer vouches for nothing
    other = evidence("other", "Robofrenzy", "Robofrenzy is a 2009 web series.", hop=2)
    assert names_absent(asked, best, units_of(other, False))
