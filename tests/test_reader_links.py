"""Chains the reader follows through labels, pointer cells and a document's title, and rows a range rules out."""

from __future__ import annotations

from boundloop.domain.models import Understanding
from boundloop.reasoners.offline.answer_types import expected_answer, head_phrase
from boundloop.reasoners.offline.extractive import synthesise
from boundloop.reasoners.offline.ranges import excludes
from boundloop.reasoners.offline.reading import supplied_words
from tests.reader_fixtures import evidence, short_answer


def test_a_cell_naming_a_venue_links_to_the_line_that_venue_labels():
    plan = evidence("offsites", "Offsite Plan 2027", "Season: Spring; Date: 12 April 2027; Venue: Cedar hall, Porto "
                    "office\nSeason: Autumn; Date: 4 October 2027; Venue: Harbour room, Porto office")
    rooms = evidence("rooms", "Porto Office Rooms", "Cedar - hall, capacity 80 seated.\nHarbour - meeting room, "
                     "capacity 14.", hop=2)
    draft = synthesise("How many people can the venue of the spring 2027 offsite seat?",
                       Understanding(query_class="multi_hop"), [plan, rooms], None)
    assert draft.short_answer == "80"
    assert [c.citations for c in draft.claims] == [["offsites#0"], ["rooms#0"]]


def test_a_passage_naming_a_document_by_its_title_links_to_its_rows_and_other_amounts_rows_are_left_out():
    policy = evidence("buying", "Purchasing Rules", "Order value: Up to EUR 5,000; What you need: one quote\n"
                      "Order value: Above EUR 5,000; What you need: a contract reviewed through the Deals Desk")
    desk = evidence("desk", "Deals Desk - Review Times", "Request type: Framework agreement above EUR 400,000; "
                    "Standard turnaround: 9 working days\nRequest type: Supplier contract; Standard turnaround: "
                    "4 working days", hop=2)
    question = "We plan a EUR 25,000 supplier purchase. What is the standard turnaround of the review it needs?"
    draft = synthesise(question, Understanding(query_class="multi_hop"), [policy, desk], None)
    assert draft.short_answer == "4 working days"
    assert draft.claims[0].citations == ["buying#0"] and "Above EUR 5,000" in draft.claims[0].text


def test_a_range_in_the_question_currency_that_misses_its_amount_rules_the_row_out():
    question = "a EUR 15,000 subscription"
    assert excludes("Framework agreements above EUR 500,000", question)
    assert excludes("EUR 2,000 – 10,000 (CAD 3,000 – 15,000)", question)
    assert not excludes("Above EUR 10,000 (above CAD 15,000)", question)
    assert not excludes("Supplier contract: 1 - 5 working days", question)
    assert not excludes("Above CAD 500,000", question)


def test_the_words_naming_the_kind_asked_are_covered_by_a_value_of_that_kind():
    question = "What is the web address of the tool I use to book rooms?"
    expected = expected_answer(question)
    assert supplied_words(question, expected) == {"web", "address"}
    assert supplied_words("How much does a monthly parking permit cost?",
                          expected_answer("How much does a monthly parking permit cost?")) == {"cost"}
    booking = evidence("rooms", "Room Booking", "Rooms are booked in Spindle, our workplace tool.")
    catalogue = evidence("systems", "Systems Catalogue", "System: Spindle; What it is for: room bookings, desk "
                         "bookings; URL: https://spindle.example", hop=2)
    draft = synthesise(question, Understanding(query_class="multi_hop"), [booking, catalogue], None)
    assert draft.short_answer == "https://spindle.example"


def test_the_asked_for_noun_ends_before_a_verb_or_a_name():
    assert head_phrase("Which retired baseball player played Chad Bradford in a movie?") == ["retired", "baseball",
                                                                                             "player"]
    assert expected_answer("What does the business Manny Cussins chaired make?").kind == "name"
    assert head_phrase("Which Slack channel do I ask in?") == ["slack", "channel"]
    assert head_phrase("What English-American actor known for his role starred in The Lodger?") == [
        "english-american", "actor"]
    # a word in -ing taking a name or 'the' is a verb; one standing alone is a noun
    assert head_phrase("What movie starring Melissa McCarthy features Slimer?") == ["movie"]
    assert head_phrase("Which film featuring the song won?") == ["film"]
    assert head_phrase("What wedding ring did she wear?") == ["wedding", "ring"]
    # an acronym before a lower-case noun qualifies it; before a name or at the end it is a name
    assert head_phrase("Which fictional MI6 agent did Ian Fleming create?") == ["fictional", "mi6", "agent"]
    assert head_phrase("Which team plays in the NBA?")[0] == "team"


def test_a_chain_answers_past_the_name_it_links_by_when_the_earlier_unit_is_what_is_asked():
    book = evidence("book", "Salt and Smoke Cooking", "Salt and Smoke Cooking is a 2019 cookbook about coastal "
                    "kitchens written by Marta Quell.")
    chef = evidence("chef", "Marta Quell", "Marta Quell (born 1970) is a Portuguese chef who founded the restaurant "
                    "group Harbour Kitchens.", hop=2)
    assert short_answer("What 2019 cookbook was written by the founder of Harbour Kitchens?", book, chef,
                        query_class="multi_hop") == "Salt and Smoke Cooking"


def test_a_name_ending_in_the_noun_asked_is_that_noun_and_heads_no_name_beside_it():
    coop = evidence("coop", "Oakridge Co-op", "The Oakridge Co-op is a housing cooperative in Millbrook, Oregon.")
    town = evidence("town", "Millbrook", "Millbrook is the county seat of Linden County, Oregon, United States.",
                    hop=2)
    assert short_answer("The Oakridge Co-op is in a city that is the seat of which county?", coop, town,
                        query_class="multi_hop") == "Linden County"


def test_a_last_unit_that_only_glosses_a_name_the_question_gives_does_not_answer():
    velo = evidence("velo", "Ana Velo", "Ana Velo (3 May 1766 – 28 November 1822) was a Varnian journalist, botanist, "
                    "diplomat and politician who served as the first Vice President of Varnia under President Tomas "
                    "Ruiz Ortega.")
    ruiz = evidence("ruiz", "Tomas Ruiz Ortega", "Tomas Ruiz Ortega (24 July 1783 – 17 December 1830), generally known "
                    "as Tomas Ruiz and also as El Fundador, was a military and political leader who led Varnia, "
                    "Lessia, Cordova and Ostra to independence.")
    asked = "Who served as the first Vice President of Varnia under El Fundador?"
    assert short_answer(asked, velo, ruiz, query_class="multi_hop", entities=("Varnia", "El Fundador")) == "Ana Velo"


def test_an_acronym_asked_for_in_full_is_spelled_out_and_the_spelling_cited():
    person = evidence("lu", "Lu Fenwick", "Lu Fenwick is a virologist. Her research on the respiratory disease KRV "
                      "helped contain its 2005 outbreak.")
    disease = evidence("krv", "Kessler respiratory virus", "Kessler respiratory virus (KRV) is a viral respiratory "
                       "disease first found in 2003.", hop=2)
    question = "What is the full name of the respiratory disease Lu Fenwick's research helped contain?"
    draft = synthesise(question, Understanding(query_class="multi_hop"), [person, disease], None)
    assert draft.short_answer == "Kessler respiratory virus"
    assert ["krv#0"] in [c.citations for c in draft.claims]
    # not asked in full, the acronym answers
    assert short_answer("Which respiratory disease did Lu Fenwick's research help contain?", person, disease,
                        query_class="multi_hop") == "KRV"


def test_a_value_standing_where_the_question_puts_the_answer_outweighs_another_units_value():
    film = evidence("film", "The Gambit", "The Gambit is a 2006 British mystery film directed by Carl Nolen, from a "
                    "screenplay by Jon Nolen.")
    actor = evidence("actor", "Ron Pell", 'Ron Pell is an American actor. He also appeared in "The Gambit" (2006) as '
                     'the manager of a hotel in Denver, as well as in nine episodes of "Ward" as Dr. Ron Sims.', hop=2)
    question = "Who directed a 2006 film where Ron Pell's character plays the manager of a hotel?"
    assert short_answer(question, actor, film, query_class="multi_hop") == "Carl Nolen"


def test_a_close_chain_naming_the_same_place_in_full_past_a_hyphen_answers():
    station = evidence("st", "Cliburn station", "Cliburn station was on the Eden Valley Railway, which ran north from "
                       "Clifton Junction, ending at Appleby.")
    railway = evidence("rail", "Eden Valley Railway", "The Eden Valley Railway ran north from Clifton Junction, ending "
                       "at Appleby-in-Westmorland.", hop=2)
    assert short_answer("Cliburn station was on a railway that ran north from Clifton Junction, ending at which town?",
                        station, railway, query_class="multi_hop") == "Appleby-in-Westmorland"
