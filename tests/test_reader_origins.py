"""Whether two named things are from one country, read from each one's own document."""

from __future__ import annotations

import pytest

from boundloop.reasoners.offline.countries import countries
from tests.reader_fixtures import evidence, short_answer

_COLLEGE = evidence("college", "Harbour College", "Harbour College is an independent day school for boys in Sydney, "
                    "New South Wales, Australia.")
_SCHOOL = evidence("school", "Ridge Valley School", "Ridge Valley School is a Christian school in Adelaide, South "
                   "Australia.")
_ACADEMY = evidence("academy", "Kelso Academy", "Kelso Academy is a secondary school in Auckland, New Zealand.")


@pytest.mark.parametrize(("other", "said"), [(_SCHOOL, "yes"), (_ACADEMY, "no")])
def test_two_places_share_a_country_when_their_own_documents_name_one(other, said):
    question = f"Are Harbour College and {other.title} located in the same country?"
    assert short_answer(question, _COLLEGE, other, query_class="comparison") == said


def test_the_directors_of_two_films_are_read_from_their_own_documents():
    first = evidence("f1", "Tidewater (film)", "Tidewater is a 2012 British drama film directed, produced and written "
                     "by Ole Brandt.")
    second = evidence("f2", "Parsnip", "Parsnip is a 1990 Danish comedy film directed by Lena Ostrova.")
    brandt = evidence("p1", "Ole Brandt", "Ole Brandt (born 1960) is a Danish director and screenwriter.")
    ostrova = evidence("p2", "Lena Ostrova", "Lena Ostrova (born 1975) is a Danish film director.")
    question = "Do both directors of films Tidewater and Parsnip have the same nationality?"
    # the first film is British, its director Danish: the director's own document speaks for him
    assert short_answer(question, first, second, brandt, ostrova, query_class="comparison") == "yes"
    # without the directors' own documents, a film's nationality does not answer for its director
    assert short_answer(question, first, second, query_class="comparison") is None


def test_a_country_is_named_or_said_by_nationality_and_not_by_a_states_name():
    assert countries("an Italian actor") == countries("born in Rome, Italy") == {"italy"}
    assert countries("a school in Sydney, New South Wales") is None
    assert countries("a town in New England") is None
    assert countries("let us go") is None
    assert countries("native to South America") is None
    assert countries("served in the US Army") == {"united states"}


def test_things_are_in_the_country_named_when_each_ones_own_document_places_them_there():
    mine = evidence("mine", "Kanichee Mine", "Kanichee Mine is an abandoned gold mine in Temagami, Ontario, Canada.")
    other = evidence("other", "Burra Mine", "The Burra Mine is a copper mine located in Ducktown, Tennessee, in the "
                     "southeastern United States.")
    asked = "Are the Kanichee Mine and Burra Mine located in the United States of America?"
    assert short_answer(asked, mine, other, query_class="comparison") == "no"
    assert short_answer("Is the Burra Mine located in the United States?", other) == "yes"
    # a Scot is British, but not English
    scot = evidence("scot", "Ewan Rae", "Ewan Rae (born 1981) is a Scottish footballer.")
    assert short_answer("Is Ewan Rae from England?", scot) == "no"
    assert short_answer("Is Ewan Rae from the United Kingdom?", scot) == "yes"
