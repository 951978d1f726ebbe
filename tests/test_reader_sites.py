"""Chains through where someone works: a directory row's site leads to that site's own page and its fields."""

from __future__ import annotations

from boundloop.reasoners.offline.answer_types import expected_answer
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
