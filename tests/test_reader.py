"""The offline reader: answer kinds, typed spans, units and their rendering, the short answer, lists, choices."""

from __future__ import annotations

import threading

import pytest

from boundloop.domain.models import Understanding
from boundloop.domain.text import stem
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.candidates import candidates
from boundloop.reasoners.offline.extractive import synthesise
from boundloop.reasoners.offline.ranges import held_values
from boundloop.reasoners.offline.render import render
from boundloop.reasoners.offline.similarity import EncoderSimilarity
from boundloop.reasoners.offline.spans import spans
from boundloop.reasoners.offline.units import units_of
from boundloop.reasoners.offline.versions import older_versions
from tests.reader_fixtures import evidence, short_answer


@pytest.mark.parametrize(("question", "kind"), [
    ("How many days of annual leave do Lisbon employees get?", "number"),
    ("What is the daily meal allowance in Europe?", "amount"),
    ("How much does a parking permit cost?", "amount"),
    ("Who approves expense claims?", "person"),
    ("When is the next town hall?", "date"),
    ("What time does the community garden close?", "time"),
    ("Which extension should I call?", "phone"),
    ("What is the web address of the HR system?", "url"),
    ("In which room does the Head of Finance sit?", "room"),
    ("Which Slack channel do I ask in?", "code"),
    ("What is the identifier of the critical finding?", "code"),
    ("Which book is the club reading in April?", "name"),
    ("Where do visitors park?", "place"),
    ("Where does the person who replaces lost badges sit?", "room"),
    ("Can contractors use the guest network?", "yes_no"),
    ("Which is older, the Lisbon office or the Toronto office?", "choice"),
    ("Who was born first, Yanka Dyagileva or Alexander Bashlachev?", "choice"),
    ("Was Yanka Dyagileva or Alexander Bashlachev born first?", "choice"),  # opening on its verb, it compares
    ("Is Lisbon or Toronto bigger?", "choice"),
    ("Was Yanka Dyagileva or Alexander Bashlachev a singer?", "yes_no"),
    ("How do I request annual leave?", "explanation"),
    ("Why was the release process changed?", "explanation"),
    ("What is the company's policy on remote work?", "explanation"),
    ("Which meeting rooms seat 12 or more people?", "list"),
    ("Which of the meeting rooms seat 12 or more people?", "list"),
    ("Which of the team's two first-aiders works nights?", "name"),  # one of them: its verb is singular
    ("What's the IT helpdesk extension?", "phone"),
    ("What is Priya Raman's extension?", "phone"),
    # asked in place, at the end
    ("The office move was approved by whom?", "person"),
    ("The audit programme was run by who?", "person"),
    ("The old intranet was switched off when?", "date"),
    ("The quarterly offsite is held where?", "place"),
])
def test_the_answer_kind_follows_the_question(question, kind):
    assert expected_answer(question).kind == kind


def test_a_choice_names_its_options_and_an_explanation_wants_no_value():
    assert expected_answer("Who is older, Carrie Akre or Shifty Shellshock?").options == ("Carrie Akre",
                                                                                        "Shifty Shellshock")
    # titles with commas and colons of their own, after the comparison asked
    assert expected_answer("Which film came out earlier, She Shall Have Music or That Devil, Bateese?").options == (
        "She Shall Have Music", "That Devil, Bateese")
    assert expected_answer("Which film was released earlier, Yohan: The Child Wanderer or A Nightmare On Elm Street "
                           "4: The Dream Master?").options == ("Yohan: The Child Wanderer",
                                                               "A Nightmare On Elm Street 4: The Dream Master")
    # a title's own 'The' is kept on either side; a lower-case 'the' is not part of the option
    assert expected_answer("Which film came out first, The Biggest Show On Earth or the Harvest?").options == (
        "The Biggest Show On Earth", "Harvest")
    assert not expected_answer("How do I reset my password?").wants_value


@pytest.mark.parametrize(("kind", "text", "found"), [
    ("amount", "Europe: EUR 55 per day; North America: CAD 80 per day", ["EUR 55 per day", "CAD 80 per day"]),
    ("number", "Lisbon: 25 working days; revenue of 1.7 billion views", ["25 working days", "1.7 billion"]),
    ("date", "Effective 1 January 2026; reviewed in March 2025", ["1 January 2026", "March 2025"]),
    ("time", "The garden closes at 18:30 and opens at 7 am", ["18:30", "7 am"]),
    ("time", "Lunch from 11:30 to 14:00; the call is at 16:00 Oslo / 10:00 Halifax", ["11:30 to 14:00", "16:00 Oslo",
                                                                                      "10:00 Halifax"]),
    ("date", "Submit by the last working day of each month; reviews run every Friday",
     ["by the last working day of each month", "every Friday"]),
    ("phone", "Call extension 6105 or mobile +351 912 555 238", ["extension 6105", "+351 912 555 238"]),
    ("url", "Open https://tidewater.example.com/leave or mail hr@example.com", ["https://tidewater.example.com/leave"]),
    ("room", "Priya Raman sits in room 3.12; desk 6-214 is next to it", ["room 3.12", "desk 6-214"]),
    ("code", "Ask in #team-ledger, type /room, see PT-26-03", ["#team-ledger", "/room", "PT-26-03"]),
    ("locative", "Visitors park in bay 7 of the garage", ["in bay 7"]),
])
def test_typed_spans(kind, text, found):
    assert [s for s in spans(kind, text) if s in found] == found


def test_names_keep_acronyms_and_leave_dates_and_opening_words_out():
    names = spans("name", "IT Service Desk: open daily. It closes early. Armin Meiwes was born in December 1961.")
    assert "IT Service Desk" in names and "Armin Meiwes" in names and "It" not in names


def test_a_job_title_before_a_name_is_not_part_of_it_but_a_rank_or_a_lone_role_is_kept():
    assert spans("name", "Architect Samuel Eto'o joined in 1997 under General Manager Gregg Popovich.") == [
        "Samuel Eto'o", "Gregg Popovich"]
    assert spans("name", "King George IV met Commander James Bond.") == ["King George IV", "Commander James Bond"]
    assert spans("name", "Ask the Travel Coordinator, or the President of the United States.") == [
        "Travel Coordinator", "President of the United States"]
    # a qualifier alone is no title; a title with no person's name after it stays a name
    assert spans("name", "Send it to Head Office Leeds, or ask our Vice President Finance.") == [
        "Head Office Leeds", "Vice President Finance"]
    assert spans("name", "Signed by Director General Anna Berg.") == ["Anna Berg"]


def test_units_drop_markup_keep_row_and_column_names_and_never_claim_a_heading():
    chunk = evidence("leave", "Leave Policy 2026", "# Leave Policy 2026\n## Annual leave\n"
                     "Annual leave; Lisbon: 25 working days; Toronto: 20 working days\n"
                     "A daily meal allowance replaces receipts:\n- **Europe: EUR 55 per day**")
    units = units_of(chunk)
    assert [u.is_heading for u in units] == [True, True, False, False, False]
    row = units[2]
    assert render(row, "How many days of annual leave do Lisbon employees get?") == \
        "Annual leave, Lisbon: 25 working days"
    assert render(units[4], "What is the meal allowance in Europe?") == \
        "A daily meal allowance replaces receipts: Europe: EUR 55 per day"
    assert "*" not in render(units[4], "x") and "|" not in render(row, "x")


def test_the_short_answer_is_the_cell_the_question_asks_for():
    seating = evidence("seating", "Lisbon Office Seating Chart",
                       "Name: Priya Raman; Role: Head of Finance; Room: 3.12; Extension: 4412")
    draft = synthesise("In which room does the Head of Finance sit?", Understanding(query_class="lookup"),
                       [seating], None)
    assert draft.short_answer == "3.12" and draft.claims[0].citations == ["seating#0"]
    phone = synthesise("What is the extension of the Head of Finance?", Understanding(query_class="lookup"),
                       [seating], None)
    assert phone.short_answer == "4412"


def test_a_chain_answers_role_then_person_then_room_each_claim_citing_its_document():
    policy = evidence("expenses", "Expense Policy", "Claim amount: Up to EUR 500; Approver: Your line manager\n"
                      "Claim amount: Above EUR 5,000; Approver: The Head of Finance")
    seating = evidence("seating", "Seating Chart", "Name: Priya Raman; Role: Head of Finance; Room: 3.12", hop=2)
    question = "I need to submit an expense claim of EUR 6,200. In which room does the person who approves it sit?"
    draft = synthesise(question, Understanding(query_class="multi_hop"), [policy, seating], None)
    assert draft.short_answer == "3.12"
    assert [c.citations for c in draft.claims] == [["expenses#0"], ["seating#0"]]
    assert "Above EUR 5,000" in draft.claims[0].text


def test_ranges_hold_the_amount_a_question_gives_in_its_own_currency():
    question = "A claim of EUR 6,200"
    assert held_values("Above EUR 5,000 (above CAD 7,500)", question) == ["EUR 6,200"]
    assert held_values("EUR 500 - 5,000", question) == []
    assert held_values("CAD 3,000 - 15,000", "a EUR 7,000 purchase") == []


def test_lists_filter_by_the_bound_the_month_and_both_sides():
    rooms = evidence("rooms", "Lisbon Meeting Rooms", "Sagres - capacity 12.\nOceano - boardroom, capacity 16.\n"
                     "Douro - capacity 6.\nBelém - auditorium, capacity 120 seated.")
    draft = synthesise("Which meeting rooms in Lisbon seat 12 or more people?",
                       Understanding(query_class="aggregation"), [rooms], None)
    assert draft.short_answer == "Sagres, Oceano and Belém" and len(draft.claims) == 3
    lisbon = evidence("lx", "Public Holidays - Lisbon Office", "Date: 3 April; Holiday: Good Friday\n"
                      "Date: 4 June; Holiday: Corpus Christi\nDate: 25 December; Holiday: Christmas Day")
    toronto = evidence("to", "Public Holidays - Toronto Office", "Date: 3 April; Holiday: Good Friday\n"
                       "Date: 1 July; Holiday: Canada Day\nDate: 25 December; Holiday: Christmas Day")
    both = synthesise("Which public holidays are observed by both the Lisbon and the Toronto offices?",
                      Understanding(query_class="aggregation"), [lisbon, toronto], None)
    assert both.short_answer == "Good Friday and Christmas Day"
    june = synthesise("Which public holidays does the Lisbon office observe in June?",
                      Understanding(query_class="aggregation"), [lisbon, toronto], None)
    assert june.short_answer == "Corpus Christi"


def test_a_choice_compares_the_options_dates():
    a = evidence("a", "Carrie Akre", "Carrie Akre (born 1968) is an American singer.")
    b = evidence("b", "Shifty Shellshock", "Shifty Shellshock (born 1974) is an American musician.")
    older = synthesise("Who is older, Carrie Akre or Shifty Shellshock?", Understanding(query_class="comparison"),
                       [a, b], None)
    younger = synthesise("Who is younger, Carrie Akre or Shifty Shellshock?",
                         Understanding(query_class="comparison"), [a, b], None)
    assert older.short_answer == "Carrie Akre" and younger.short_answer == "Shifty Shellshock"


def test_a_choice_excluding_a_place_is_the_option_not_said_to_be_there():
    a = evidence("a", "Harrow Hound", "The Harrow Hound is a breed of herding dog that began in the United States.")
    b = evidence("b", "Lenne Pointer", "The Lenne Pointer is a breed of hunting dog that originated in Belgium.")
    asked = "Which breed of dog has origins outside of the United States, Harrow Hound or Lenne Pointer?"
    assert synthesise(asked, Understanding(query_class="comparison"), [a, b], None).short_answer == "Lenne Pointer"
    inside = "Which breed of dog has origins in the United States, Harrow Hound or Lenne Pointer?"
    assert synthesise(inside, Understanding(query_class="comparison"), [a, b], None).short_answer == "Harrow Hound"


def test_a_choice_reads_each_option_s_date_from_its_own_document():
    """A passage elsewhere that only mentions an option ('the subject of the Atlas portal') has no date for it."""
    mention = evidence("m", "Rollout notes", "Staff were trained on the Atlas portal and the Beacon wiki together.",
                       score=0.09)
    atlas = evidence("a", "Atlas portal", "The Atlas portal is a 2019 intranet site for requests.")
    beacon = evidence("b", "Beacon wiki", "The Beacon wiki is a team wiki launched in 2012 for engineering notes.")
    first = synthesise("Which came out first, the Atlas portal or the Beacon wiki?",
                       Understanding(query_class="comparison"), [mention, atlas, beacon], None)
    assert first.short_answer == "Beacon wiki"
    assert {c.citations[0] for c in first.claims} == {"a#0", "b#0"}


def test_a_year_in_the_asked_for_phrase_is_not_its_noun():
    assert expected_answer("What 2015 British romantic drama was Finola Dwyer a producer of?").head == "drama"


def test_the_current_document_answers_and_the_superseded_one_is_a_conflict():
    old = evidence("old", "Travel Policy 2024", "Meal allowance:\nEurope: EUR 45 per day", score=0.04)
    new = evidence("new", "Travel Policy 2026", "Meal allowance:\nEurope: EUR 55 per day")
    assert older_versions([old, new]) == {"old"}
    draft = synthesise("What is the daily meal allowance in Europe?", Understanding(query_class="lookup"),
                       [old, new], None)
    assert draft.short_answer == "EUR 55 per day" and draft.claims[0].citations == ["new#0"]
    assert draft.conflicts and set(draft.conflicts[0].values) == {"EUR 55 per day", "EUR 45 per day"}


def test_nothing_is_drafted_when_no_passage_answers():
    leave = evidence("leave", "Leave Policy", "Annual leave; Lisbon: 25 working days; Toronto: 20 working days")
    assert synthesise("What is the address of the Singapore office?", Understanding(query_class="lookup"),
                      [leave], None).claims == []


def test_stemming_is_safe_from_many_threads():
    words = [f"travelling{i}" for i in range(2000)] + ["approvals", "approving"] * 500
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for word in words:
                stem(word)
        except BaseException as exc:  # noqa: BLE001 - any failure of a thread is the finding
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and stem("approvals") == stem("approving") == "approv"


def test_a_value_both_compared_things_share_is_the_short_answer():
    atlas = evidence("a", "Atlas portal", "The Atlas portal is hosted by Northwind Cloud in Frankfurt.")
    beacon = evidence("b", "Beacon wiki", "The Beacon wiki is hosted by Northwind Cloud since 2012.")
    both = synthesise("Which provider hosts both the Atlas portal and the Beacon wiki?",
                      Understanding(query_class="comparison", entities=["Atlas portal", "Beacon wiki"]),
                      [atlas, beacon], None)
    assert both.short_answer == "Northwind Cloud" and len(both.claims) == 2


_POLICY = ("Purchases above EUR 5,000 need quotes from three suppliers. Purchases above EUR 50,000 must be approved by "
           "the Chief Financial Officer. All other purchase orders are approved by the Head of Procurement.")
_PEOPLE = ("# Who's who\nName: Priya Raman; Role: Head of Procurement; Extension: 4410\n"
           "Name: Helen Achebe; Role: Chief Financial Officer; Extension: 4001")
"""A who's-who table as ingest writes it (a row per line, each cell named by its column)."""


def _purchasing(question: str, query_class: str = "lookup"):
    return synthesise(question, Understanding(query_class=query_class),
                      [evidence("policy", "Purchasing Policy", _POLICY), evidence("people", "Who's who", _PEOPLE)],
                      None)


def test_a_scale_is_a_word_of_its_own():
    """'EUR 50,000 must' is fifty thousand, not fifty thousand million ('m' of 'must')."""
    assert held_values("Purchases above EUR 50,000 must be approved.", "Who approves EUR 60,000?") == ["EUR 60,000"]


def test_the_catch_all_case_answers_an_amount_the_ranges_leave_out():
    below = _purchasing("Who approves a purchase order of EUR 8,000?")
    above = _purchasing("Who approves a purchase of EUR 60,000?")
    assert below.short_answer in ("Priya Raman", "Head of Procurement") and "All other" in below.claims[0].text
    assert above.short_answer in ("Helen Achebe", "Chief Financial Officer") and "EUR 50,000" in above.claims[0].text


@pytest.mark.slow
def test_a_chain_does_not_run_through_a_row_about_other_amounts(real_encoder):
    """The chain through 'above EUR 50,000' (the CFO, 4001) answers another case than EUR 10,000."""
    question = "What is the extension of the person who approves purchases of EUR 10,000?"
    found = synthesise(question, Understanding(query_class="multi_hop"),
                       [evidence("policy", "Purchasing Policy", _POLICY), evidence("people", "Who's who", _PEOPLE)],
                       None, EncoderSimilarity(real_encoder))
    assert found.short_answer == "4410"


def test_a_spelled_count_of_what_is_asked_is_the_number():
    assert _purchasing("How many supplier quotes do I need for a EUR 7,000 purchase?").short_answer == "three suppliers"


def test_both_sides_of_a_list_can_be_sections_of_one_document():
    """Two offices' holidays under their own headings; items named by what follows their date."""
    holidays = evidence("hol", "Public holidays 2026", "# Public holidays 2026\n\n## Hamburg office\n"
                        "- 1 January: New Year's Day\n- 3 April: Good Friday\n- 1 May: Labour Day\n\n"
                        "## Vienna office\n- 1 January: New Year's Day\n- 6 January: Epiphany\n- 1 May: Labour Day")
    both = synthesise("Which public holidays do both the Hamburg and Vienna offices observe?",
                      Understanding(query_class="aggregation"), [holidays], None)
    assert both.short_answer == "New Year's Day and Labour Day"


@pytest.mark.slow
def test_a_sentence_naming_the_person_before_by_first_name_continues_the_chain(real_encoder):
    """Travel bookings -> the Travel Desk is run by Jonas Weber -> 'Jonas sits in room 4.17'."""
    guide = evidence("guide", "Travel Guideline", "Travel bookings are handled by the Travel Desk.")
    team = evidence("team", "Operations team", "The Travel Desk is run by Jonas Weber. Jonas sits in room 4.17 and "
                    "can be reached at jonas.weber@beta.example. Security questions go to Amara Osei.")
    similarity = EncoderSimilarity(real_encoder)
    room = synthesise("Which room does the person who runs the Travel Desk sit in?",
                      Understanding(query_class="multi_hop"), [guide, team], None, similarity)
    mail = synthesise("What is the email address of the person who handles travel bookings?",
                      Understanding(query_class="multi_hop"), [guide, team], None, similarity)
    assert room.short_answer == "room 4.17" and len(room.claims) == 2
    assert mail.short_answer == "jonas.weber@beta.example" and len(mail.claims) == 3


_GUIDE = "The main entrance opens at 07:30 and closes at 19:00 on weekdays."
_CAPS = "The hotel cap in Madrid is EUR 165 per night and in Paris EUR 210 per night."


@pytest.mark.parametrize(("question", "text", "value"), [
    ("What time does the main entrance close?", _GUIDE, "19:00"),  # the question's verb picks one of two values
    ("What time does the main entrance open?", _GUIDE, "07:30"),
    ("What is the hotel cap in Madrid?", _CAPS, "EUR 165 per night"),  # an amount is not part of a name
])
def test_the_value_one_sentence_gives_for_the_question(question, text, value):
    found = synthesise(question, Understanding(query_class="lookup"), [evidence("doc", "Guide", text)], None)
    assert found.short_answer == value


def test_what_someone_should_do_asks_for_an_explanation():
    assert expected_answer("What should Toronto staff do in an ice storm?").kind == "explanation"



@pytest.mark.parametrize(("question", "value"), [
    ("Where is the Payroll team located?", "Bergen"),
    ("When does the canteen serve lunch?", "11:30 to 14:00"),
    ("When are timesheets due?", "by the last working day of each month"),
])
@pytest.mark.slow
def test_a_when_or_where_question_reads_times_phrases_and_location_cells(question, value, real_encoder):
    found = synthesise(question, Understanding(query_class="lookup"), [
        evidence("org", "Organisation chart", "# Organisation chart\nTeam: Payroll; Manager: Ahmed Karim; "
                 "Location: Bergen; Phone: +47 55 66 77 88"),
        evidence("canteen", "Canteen", "The canteen serves lunch from 11:30 to 14:00."),
        evidence("sheets", "Timesheets", "Timesheets must be submitted by the last working day of each month.")],
        None, EncoderSimilarity(real_encoder))
    assert found.short_answer == value


def test_a_how_to_question_is_answered_by_the_steps_under_the_heading_that_names_it():
    handbook = evidence("it", "IT Handbook", "# IT Handbook\n## Storage\nEach employee gets 50 GB of cloud storage.\n"
                        "## Getting a new laptop\n1. Ask your manager to approve the request.\n"
                        "2. Open a ticket in ServiceNow under \"Hardware\".\n"
                        "3. Collect the laptop from the IT counter on floor 2.")
    found = synthesise("How do I get a new laptop?", Understanding(query_class="lookup"), [handbook], None)
    assert [c.text for c in found.claims] == [
        "Ask your manager to approve the request.", "Open a ticket in ServiceNow under \"Hardware\".",
        "Collect the laptop from the IT counter on floor 2."]
    assert found.short_answer is None


def test_the_steps_to_do_something_are_a_procedure_whatever_the_question_is_classed():
    policy = evidence("travel", "Travel Policy", "# Travel Policy\n## Scope\nIt applies to company business trips.\n"
                      "## How to book a trip\n1. Agree the dates with your manager.\n2. Raise a travel request in "
                      "PeopleHub.\n3. Send it to the Travel Coordinator at least 14 days before departure.")
    for query_class in ("aggregation", "lookup"):
        found = synthesise("What are the steps to book a business trip?", Understanding(query_class=query_class),
                           [policy], None)
        assert [c.text[:10] for c in found.claims] == ["Agree the ", "Raise a tr", "Send it to"]
        assert found.short_answer is None  # no list of names made of the steps


def test_an_acronym_reads_as_the_words_the_documents_spell_it_with():
    from boundloop.reasoners.offline.acronyms import expanded

    contacts = evidence("people", "Key contacts", "Person: Ken Ito; Title: Data Protection Officer; Email: "
                        "ken.ito@delta.example")
    assert expanded("What is the email of the DPO?", [contacts]) == (
        "What is the email of the Data Protection Officer?")
    assert expanded("What is the SLA?", [contacts]) == "What is the SLA?"  # nothing spells it
    uses = evidence("it", "IT", "The DPO is Ken Ito. Data Protection Officer duties are listed below.")
    # the documents use the acronym itself: it stays, and its spelling goes beside it as plain words
    assert expanded("Who is the DPO?", [uses]) == "Who is the DPO (data protection officer)?"
    found = synthesise("What is the email of the DPO?", Understanding(query_class="lookup"), [contacts], None)
    assert found.short_answer == "ken.ito@delta.example"


@pytest.mark.parametrize(("question", "verb"), [
    ("How many days of PTO can I carry over?", "carri"),
    ("What time does the main entrance close?", "close"),
    ("Who approves expense claims?", "approv"),
    ("What is the hotel cap?", "cap"),
    ("Which room does the person who runs the Travel Desk sit in?", "sit"),
])
def test_the_asked_verb(question, verb):
    from boundloop.reasoners.offline.verbs import asked_verb

    assert asked_verb(question) == verb



def test_an_acronym_spelled_like_a_stopword_is_a_word_of_the_question():
    """'Head of IT' is not just 'Head': the IT row answers, not the first Head of anything."""
    org = evidence("org", "Organisation chart", "Name: Priya Raman; Role: Head of Finance\n"
                   "Name: Rui Tavares; Role: Head of IT\nName: Hannah Kowalski; Role: Head of Security")
    found = synthesise("Who is the Head of IT?", Understanding(query_class="lookup"), [org], None)
    assert found.short_answer == "Rui Tavares"


def test_an_agent_noun_meets_its_verb():
    """'Who owns the policy?' is answered by 'Owner: Inês Carvalho'."""
    policy = evidence("leave", "Leave Policy 2026", "Effective 1 January 2026. Owner: Inês Carvalho, Head of People. "
                      "This policy covers annual leave and sick leave.")
    found = synthesise("Who owns the Leave Policy 2026?", Understanding(query_class="lookup"), [policy], None)
    assert found.short_answer == "Inês Carvalho"



@pytest.mark.parametrize(("amount", "said"), [("EUR 3,000", "no"), ("EUR 6,000", "yes")])
def test_a_yes_or_no_under_a_threshold_reads_the_range(amount, said):
    """'Purchases above EUR 5,000 need quotes from three suppliers' does not say yes for EUR 3,000."""
    found = synthesise(f"Do purchases of {amount} need three quotes?", Understanding(query_class="lookup"),
                       [evidence("policy", "Purchasing Policy", "Purchases above EUR 5,000 need quotes from three "
                                 "suppliers.")], None)
    assert found.short_answer == said


def test_a_question_asking_the_year_takes_the_year_of_a_full_date():
    office = evidence("office", "Harbour Office", "The Harbour office opened on 3 March 2019 with forty desks.")
    assert short_answer("In what year did the Harbour office open?", office) == "2019"
    assert short_answer("When did the Harbour office open?", office) == "3 March 2019"


def test_a_reading_asked_for_is_a_number_with_its_unit_and_its_bound():
    rule = evidence("pool", "Pool Water Checks", "Chlorine is measured in PPM. After each clean the pool water must "
                    "read below 3 PPM before it reopens.")
    assert short_answer("What chlorine reading does the pool water need before it reopens?", rule) == "below 3 PPM"
    assert expected_answer("What ATP reading do the swabs need?", "lookup").kind == "number"


def test_a_choice_dates_an_option_from_a_unit_that_says_little_of_the_question():
    """'physicist' is not 'scientist': his unit covers little of the question, but it dates him."""
    a = evidence("a", "Ada Brennholz", "Prof. Dr. Ada Maria Brennholz (born May 2, 1941) is a German physicist.")
    b = evidence("b", "Lionel Okafor", "Lionel Okafor (born June 6, 1963) is a Nigerian scientist and engineer "
                 "known for solar research.")
    assert short_answer("Between two scientists Ada Brennholz and Lionel Okafor, who is older?", a, b,
                        query_class="comparison") == "Ada Maria Brennholz"


def test_a_choice_reads_each_option_from_its_own_document_when_their_names_share_words():
    north = evidence("n", "Northern Technical Institute", "Northern Technical Institute is a public institute in "
                     "Leeds offering engineering degrees.")
    south = evidence("s", "Southern Technical Institute of Wales", "Founded in 1911 as a mining school, it is one "
                     "of two technical institutes in the Welsh college network.")
    assert short_answer("Between Northern Technical Institute and Southern Technical Institute of Wales, which was "
                        "founded as a mining school?", north, south,
                        query_class="comparison") == "Southern Technical Institute of Wales"


def test_a_place_keeps_its_region_unless_it_is_an_item_of_a_list():
    depot = evidence("depot", "Northern depot", "The northern depot is based in Rimouski, Quebec and serves Montreal.")
    question = "Where is the northern depot based?"
    found = [c.text for u in units_of(depot, False) for c in candidates(u, expected_answer(question), question)]
    assert "Rimouski, Quebec" in found
    offices = units_of(evidence("offices", "Our Offices", "We have offices in Leeds, Tilburg and Gdansk."), False)
    listed = [c.text for c in candidates(offices[0], expected_answer("Where are the offices?"), "Where are they?")]
    assert "Leeds" in listed and "Leeds, Tilburg" not in listed
