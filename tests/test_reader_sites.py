"""Chains through where someone works: a directory row's site leads to that site's own page and its fields."""

from __future__ import annotations

from boundloop.domain.models import Understanding
from boundloop.domain.sentences import chunk_sentences
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.bridges import missing_links
from boundloop.reasoners.offline.places import same_place
from boundloop.reasoners.offline.ruled_out import owner_stems
from boundloop.reasoners.offline.spans import finditer
from boundloop.reasoners.offline.unit_names import titled
from tests.reader_fixtures import evidence, short_answer

DIRECTORY = evidence("dir", "Staff directory", "Name: Sandoval, Ines; Job title: Claims Lead; Site: Dunmore; "
                     "Extension: 3122\nName: Okoro, Tunde; Job title: Underwriter; Site: Harwell; Extension: 3140")
DUNMORE = evidence("dunmore", "Dunmore Office – Site Information", "Site: Dunmore\nAddress: 2nd Floor, Quay House, "
                   "12 Wharf Street, Dunmore DN4 7QT\nWifi (staff): FD-DUN-STAFF", hop=2)
HARWELL = evidence("harwell", "Harwell Office – Site Information", "Site: Harwell\nAddress: 5 Mill Lane, Harwell "
                   "HW2 9AB\nWifi (staff): FD-HAR-STAFF", hop=2)


def test_the_postcode_of_the_office_someone_works_from_is_read_through_their_sites_page():
    question = "what's the postcode of the office Ines Sandoval works from?"
    assert short_answer(question, DIRECTORY, DUNMORE, HARWELL) == "DN4 7QT"


def test_a_postcode_is_asked_for_as_a_kind_of_its_own():
    assert expected_answer("What's the postcode for the site Tunde Okoro works at?").kind == "postcode"
    found = {t[s:e] for t in ("Quay House, Dunmore DN4 7QT", "ul. Nabrzeże 3, 81-341 Gdynia",
                              "Rua da Aviação 18, 2615-173 Alverca", "Hochbergerstrasse 60C, 4057 Basel",
                              "Suite 400, Cambridge, MA 02139", "Keizersgracht 12, 1015 CS Amsterdam")
             for s, e in finditer("postcode", t)}
    assert found == {"DN4 7QT", "81-341", "2615-173", "4057", "02139", "1015 CS"}
    assert not list(finditer("postcode", "Call 0161 496 0299 or ext. 2299 by 12 March 2025"))


def test_the_column_naming_whose_value_is_asked_holds_the_owner_not_the_value():
    assert owner_stems("What's the postcode for the site Tunde Okoro works at?", "postcode") == {"site"}
    assert owner_stems("sunday enhancement for a band 3?", "enhancement") == {"band"}
    assert owner_stems("Which room?", "") == set()
    # the site's name is no postcode: without a page giving it, nothing answers
    assert short_answer("what's the postcode for the site Tunde Okoro works at?", DIRECTORY) is None


def test_a_long_title_is_no_name_of_its_first_two_words():
    # 'Engine Room Keys' is not about every engine room a passage mentions
    assert "engine room" not in titled("Engine Room Keys")
    assert same_place("Caddon Marsh WwTW", "Caddon Marsh Wastewater Treatment Works")


def test_a_street_address_is_asked_for_as_a_kind_of_its_own():
    assert expected_answer("What's the street address of the office Ines Sandoval works at?").kind == "address"
    found = {t[s:e] for t in ("Address: 3rd Floor, Clydeview House, 120 Bothwell Street, Glasgow",
                              "Address: ul. Nabrzeże Bułgarskie 3, 81-341 Gdynia", "Rua da Aviação 18, Alverca",
                              "Hochbergerstrasse 60C, 4057 Basel", "45 Inner Belt Road, Somerville")
             for s, e in finditer("address", t)}
    assert found == {"120 Bothwell Street", "ul. Nabrzeże Bułgarskie 3", "Rua da Aviação 18", "Hochbergerstrasse 60C",
                     "45 Inner Belt Road"}


def test_a_site_abbreviated_in_the_directory_is_the_page_that_spells_it_out():
    assert same_place("Harwell WTW", "Harwell Water Treatment Works")
    assert same_place("Dunmore", "Dunmore Office") and not same_place("Dunmore", "Dunmorehead Office")
    assert not same_place("Harwell WTW", "Site Guide")
    directory = evidence("dir", "Staff directory", "Name: Reyes, Ada; Department: Field Services; "
                         "Site: Harwell WTW; Extension: 2120")
    guide = evidence("site-guide-harwell", "Site Guide — Harwell Water Treatment Works",
                     "Address: Harwell Water Treatment Works, 4 Mill Lane, Harwell HW2 9AB\nStaff wifi: HWL-OPS", hop=2)
    other = evidence("site-guide-dunmore", "Site Guide — Dunmore Office", "Address: 12 Wharf Street, Dunmore DN4 7QT",
                     hop=2)
    assert short_answer("what's the postcode of the site Ada Reyes is based at?", directory, guide, other) == "HW2 9AB"


def test_a_kind_of_place_before_its_name_is_the_same_place():
    assert same_place("Gdynia", "Terminal Gdynia") and same_place("Porto", "Station Porto")
    assert not same_place("Gdynia", "Visiting Gdynia") and not same_place("Gdynia", "Terminal Gdansk")


def test_a_street_abbreviation_does_not_end_the_address():
    assert chunk_sentences("Address: ul. Nabrzeże Bułgarskie 3, 81-341 Gdynia. Ring the bell.") == \
        ["Address: ul. Nabrzeże Bułgarskie 3, 81-341 Gdynia.", "Ring the bell."]
    assert chunk_sentences("We moved to Av. da Liberdade 12. Parking is free.")[0] == "We moved to Av. da Liberdade 12."
    directory = evidence("dir", "Staff directory", "Name: Nowicka, Ola; Job title: Planner; Site: Gdynia; "
                         "Extension: 6120")
    guide = evidence("site-guide-gdynia", "Terminal Gdynia — site information",
                     "Company: Skarn Terminal Sp. z o.o.\nAddress: ul. Nabrzeże Bułgarskie 3, 81-341 Gdynia, Poland",
                     hop=2)
    assert short_answer("What's the street address of the office Ola Nowicka works at?", directory, guide) == \
        "ul. Nabrzeże Bułgarskie 3"


NEWS = evidence("news", "Newsletter — November", "Jeroen Smit is the new HSEQ Coordinator in Rotterdam.\n"
                "Femke Jansen joined the planning office in August.")
STAFF = evidence("staff", "Staff directory", "Name: Lis, Magda; Job title: HSEQ Coordinator; Site: Gdansk; "
                 "Extension: 6190\nName: Jansen, Femke; Job title: Berth Planner; Site: Stavanger; Extension: 3315")
GDANSK = evidence("site-gdansk", "Terminal Gdansk — site information", "Address: 3 Quay Road, Gdansk\n"
                  "Staff wifi: SK-GDA-Staff", hop=2)
STAVANGER = evidence("site-stavanger", "Stavanger office — practical info", "Address: Strandkaien 14, Stavanger\n"
                     "Staff wifi: SK-SVG-Office", hop=2)


def test_a_chain_about_someone_names_them_in_its_own_passages():
    # the newsletter's other sentence names a coordinator whose row leads to Gdansk: no chain about Femke Jansen
    question = "what's the staff wifi at the office where Femke Jansen sits?"
    assert short_answer(question, NEWS, STAFF, GDANSK) != "SK-GDA-Staff"
    assert short_answer(question, NEWS, STAFF, GDANSK, STAVANGER) == "SK-SVG-Office"


def test_a_place_question_follows_the_site_of_the_person_it_names():
    question = "What's the street address of the office Femke Jansen works at? I need to send her a parcel"
    lack = missing_links(question, Understanding(query_class="lookup", entities=["Femke Jansen"]),
                         [NEWS, STAFF], set())
    assert lack.links[:1] == ["Stavanger"]


def test_a_third_passage_that_adds_nothing_does_not_lead_past_the_site():
    directory = evidence("dir", "Staff directory", "Name: Reyes, Ada; Department: Field Services; "
                         "Site: Harwell WTW; Extension: 2120")
    harwell = evidence("site-guide-harwell", "Site Guide — Harwell Water Treatment Works",
                       "Address: Harwell WTW, Mill Lane, Harwell HW2 9AB\nUnstaffed overnight — the works is "
                       "monitored from the control room at Quay House.", hop=2)
    quay = evidence("site-guide-quay-house", "Site Guide — Quay House", "Address: Quay House, 14 Tanner's Row, "
                    "Dunmore DN1 2AB\nParcels for the works go out with the internal van on Tuesdays.", hop=3)
    question = "I need to post a parcel to Ada Reyes, what's the address of the site she's based at?"
    assert short_answer(question, directory, harwell, quay) == "Harwell WTW, Mill Lane, Harwell HW2 9AB"
