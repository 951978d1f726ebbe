"""The offline reader on traps from public QA data: a measure in the wrong units, a verb read as a plural noun, a
passage stating the opposite of what is asked, what two things have in common, choices and the name asked after."""

from __future__ import annotations

from functools import partial

import pytest

from boundloop.domain.models import Understanding
from boundloop.reasoners.offline.answer_types import Expected, expected_answer
from boundloop.reasoners.offline.answerability import features
from boundloop.reasoners.offline.candidates import candidates
from boundloop.reasoners.offline.chains import chains
from boundloop.reasoners.offline.cloze import fills
from boundloop.reasoners.offline.measures import measure_units
from boundloop.reasoners.offline.reading import read, term_weights
from boundloop.reasoners.offline.shared import shared_trait
from boundloop.reasoners.offline.units import Unit, units_of
from tests.reader_fixtures import evidence, short_answer


def _unit(text: str, title: str = "Rivers") -> Unit:
    return units_of(evidence("d", title, text), False)[0]


def _values(question: str, text: str) -> list[str]:
    return [c.text for c in candidates(_unit(text), expected_answer(question), question)]


def test_a_measure_is_answered_only_in_its_units():
    text = "The Moselle contributes an average discharge of 300 m3/s and is about 400 m wide at Koblenz."
    assert _values("How wide is the Moselle?", text) == ["400 m"]
    assert _values("How wide is the Moselle?", "The Moselle has 8 locks and 300 m3/s of discharge.") == []
    # 'how many' asks a count: any number answers
    assert "8" in _values("How many locks does the Moselle have?", "The Moselle has 8 locks.")


def test_how_long_takes_a_duration_or_a_length_and_a_cell_header_gives_the_unit():
    assert _values("How long do I have to submit a claim?", "Submit it within 10 working days of the trip.") == [
        "10 working days"]
    assert _values("How long must a password be?", "Passwords must be at least 12 characters.") == [
        "12 characters"]
    assert "8" in _values("How long is a session?", "Session; Maximum length (hours): 8; Owner: IT")
    assert _values("How long is the Rhine?", "The Rhine has 2 sources.") == []


def test_how_far_ahead_asks_a_duration():
    units = measure_units("How far in advance do I book a room?")
    assert units is not None and units.match("two weeks") and not units.match("3 km")
    assert measure_units("How many rooms are there?") is None


def test_a_verb_in_s_after_what_is_no_plural_noun():
    assert expected_answer("What flows between Bingen and Bonn?").kind != "list"
    assert expected_answer("What carries the flow through France?").kind != "list"
    # plural nouns still ask for a list, with or without a place after them
    assert expected_answer("What rooms seat 12 or more?").kind == "list"
    assert expected_answer("What holidays in Leeds are paid?").kind == "list"
    assert expected_answer("Which offices in Europe observe Good Friday?").kind == "list"


def _antonym(question: str, text: str) -> float:
    units = [_unit(text)]
    weights = term_weights(question, units)
    expected = Expected("name")
    found = chains(read(question, expected, units, {"d#0": 0}, weights), question, weights)
    return features(question, expected, found[0], None, weights, lambda q, texts: [0.5] * len(texts))["antonym"]


def test_a_passage_stating_the_opposite_is_marked():
    text = "During the ice ages the Rhine took a left turn, creating the Channel River."
    assert _antonym("When the Rhine took a right turn, what did it create?", text) == 1.0
    assert _antonym("When the Rhine took a left turn, what did it create?", text) == 0.0
    assert _antonym("What is used only for larger streams to the north?",
                    "The name Rijn is used only for smaller streams to the north.") == 1.0
    # 'before' and 'after' are not opposites here: 'locked after 5 failed attempts' answers 'before'
    assert _antonym("How many failed attempts before the account is locked?",
                    "The account is locked after 5 failed attempts.") == 0.0


SHARED = [
    evidence("a", "Ana Lind", "Ana Lind (born 1990) is a Swedish professional tennis player. She won the Nordic Open."),
    evidence("m", "Maria Holt", "Maria Holt is a Danish tennis player and coach from Aarhus."),
    evidence("f", "Ferngate", "Ferngate is a party game created by Ida Berg and Ole Dahl."),
    evidence("q", "Quillbox", "Quillbox is a board game designed by Per Ask."),
]


def test_what_two_things_have_in_common_is_a_word_both_are_described_by():
    from boundloop.reasoners.offline.extractive import synthesise
    from boundloop.reasoners.offline.similarity import EncoderSimilarity

    similarity = EncoderSimilarity()
    ask = partial(synthesise, understanding=Understanding(query_class="comparison"), evidence=SHARED,
                  assessment=None, similarity=similarity)
    sport = ask("What sport is played by both Ana Lind and Maria Holt?")
    assert sport.short_answer == "tennis"
    assert {c.citations[0] for c in sport.claims} == {"a#0", "m#0"}
    assert ask("Ferngate and Quillbox are both what?").short_answer == "games"
    # without 'both' or 'in common' it asks about each, not what they share
    assert shared_trait("What sport do Ana Lind and Maria Holt play?", ["Ana Lind", "Maria Holt"], [], similarity) \
        is None


PLANTS_AND_POETS = [
    evidence("v", "Velmora", "Velmora is a genus of bushy, herbaceous perennial plants. It is native to western "
             "Latin America, from southern Chile north to Mexico."),
    evidence("t", "Tasket", "Tasket is a genus of herbaceous perennial plants in the family Rosaceae. All the species "
             "are native to western South America (Peru and northern Chile)."),
    evidence("o", "Orla Finch", "Orla Finch (1882-1973) was an Irish novelist. She was awarded the 1931 Halden Prize "
             "for 'The Long Field'."),
    evidence("b", "Bea Marr", "Bea Marr (1890-1950) was a Welsh poet. She received the Halden Prize for Poetry in "
             "1940, and was also known for her essays."),
]


def test_a_shared_trait_is_of_the_kind_asked_and_may_come_from_the_rest_of_both_documents():
    from boundloop.reasoners.offline.extractive import synthesise
    from boundloop.reasoners.offline.similarity import EncoderSimilarity

    ask = partial(synthesise, understanding=Understanding(query_class="comparison"), evidence=PLANTS_AND_POETS,
                  assessment=None, similarity=EncoderSimilarity())
    # 'plant' describes both already: the kind asked is the categorisation, not the plants
    assert ask("Velmora and Tasket are both examples of what type of plant categorization?").short_answer == "genus"
    # what they are shares no country: their documents' later sentences both name Chile ('America' ends two names)
    native = ask("In what country are both Velmora and Tasket native plants?")
    assert native.short_answer == "Chile"
    assert {c.citations[0] for c in native.claims} == {"v#0", "t#0"}
    # what they are shares nothing asked: the prize both documents name later answers
    assert ask("Orla Finch and Bea Marr have both been given what?").short_answer == "Halden Prize"


@pytest.mark.parametrize(("question", "options"), [
    ("Between two scientists Ernst Messerschmid and Philippe Perrin, who is older?",
     ("Ernst Messerschmid", "Philippe Perrin")),
    ("Which university is older: University of California, Berkeley or Syracuse University?",
     ("University of California, Berkeley", "Syracuse University")),
    ("Who was born first of Leslie S. Hiscott and James Rolfe", ("Leslie S. Hiscott", "James Rolfe")),
    ("Which battle, the Battle of Cold Harbor, or the Second Battle of Bull Run, was fought first?",
     ("Battle of Cold Harbor", "Second Battle of Bull Run")),
    ("Which film was released earlier, Molokai: The Story Of Father Damien or Brahma?",
     ("Molokai: The Story Of Father Damien", "Brahma")),
])
def test_choices_laid_out_in_other_ways(question, options):
    assert expected_answer(question, "comparison").options == options


def test_the_brother_of_someone_is_no_choice():
    assert expected_answer("Who was the brother of the architect of Hook and Ladder No. 4 and the Albany "
                           "City Hall?", "comparison").kind != "choice"


def test_a_person_chosen_is_named_as_their_own_document_names_them():
    from boundloop.reasoners.offline.extractive import synthesise

    people = [evidence("w", "Flora Welch", "Flora Leontine Mary Welch (born 28 August 1986) is an English singer."),
              evidence("n", "Gunnar Nelson", "Gunnar Nelson (born 28 July 1988) is an Icelandic fighter.")]
    draft = synthesise("Who was born first, Gunnar Nelson or Flora Welch?", Understanding(query_class="comparison"),
                       people, None)
    assert draft.short_answer == "Flora Leontine Mary Welch"
    draft = synthesise("Who was born more recently, Gunnar Nelson or Flora Welch?",
                       Understanding(query_class="comparison"), people, None)
    assert draft.short_answer == "Gunnar Nelson"


def test_a_name_standing_where_the_question_puts_the_answer_beats_the_subject():
    unit = _unit("Red Rover is a 2004 western video game developed by Rockstar San Diego and published by Capcom.",
                 "Red Rover")
    question = "Paul Dey appeared in the western video game developed by which company?"
    best = max(candidates(unit, expected_answer(question), question), key=lambda c: c.rule_score)
    assert best.text == "Rockstar San Diego" and best.aligned


def test_a_nickname_inside_a_name_is_part_of_that_name():
    text = 'Wendel Sarrow "Doug" Pelham Jr. (born 1971) is a wrestler best known for his work with Coastline Wrestling.'
    found = _values("What program did this Pelham brother join in 2007?", text)
    assert "Doug" not in found
    assert _values("Which actor played in The Harbour?", 'Norbert Arlo "Nobby" Quist played in The Harbour.')[:1] == [
        'Norbert Arlo "Nobby" Quist']
    # asked for, it answers
    assert "Nobby" in _values("What is the nickname of Norbert Quist?", 'Norbert Arlo "Nobby" Quist played darts.')


def test_a_quoted_function_word_is_no_answer():
    text = 'The Chief Officer (often "Chief "in" or "of" Europe") was the head of the Northern Command.'
    assert "or" not in _values("Which Chief Officer led the Northern Command?", text)


def test_a_name_after_by_is_rarely_the_thing_asked_for():
    unit = _unit("The Seduction of Hillary Rodham is a 1996 book written by David Brock.", "Books")
    question = "Which 1996 book is about Hillary Rodham?"
    by = [c for c in candidates(unit, expected_answer(question), question) if c.text == "David Brock"]
    assert by and by[0].agent
    assert expected_answer('"The Chance of a Lunchtime" is an episode of a sitcom written by who?').kind == "person"


def test_a_percentage_counts_nothing():
    text = "Work on a public holiday is paid at 150% and the office gets 7 public holidays."
    assert "150%" not in _values("How many public holidays does the office get?", text)
    assert "150%" in _values("What percentage is holiday work paid at?", text)


def test_a_name_the_question_gives_with_a_slip_of_the_keys_is_no_answer():
    text = "The Ashby Hall War Memorial commemorates the fallen of the First World War."
    asked = "The Ashby Hal War Memorial commemorates the fallen of which war?"
    assert "Ashby Hall War Memorial" not in _values(asked, text)
    # one word off is a slip only at the end of a word the question types
    assert "Ashby Hill War Memorial" in _values(asked, text.replace("Hall", "Hill"))


def test_a_full_name_the_question_gives_in_short_is_no_answer():
    text = 'Walter Ander "The Wizard" Pellow (born 1970) played for the Kestrels, as did Kevin Eugene Pellow.'
    found = _values("Which team did the player Walt Pellow join?", text)
    assert 'Walter Ander "The Wizard" Pellow' not in found and "Kevin Eugene Pellow" in found
    # the same first name is no short form: a son may carry his father's names
    assert "John Quincy Arden" in _values("Who followed John Arden?", "John Quincy Arden followed his father.")


def test_a_name_too_short_for_stems_is_stated_as_written():
    text = "Merrow holds a B.B.A from the Harlan School of Business."
    found = _values("Which school did the congressman who holds a B.B.A attend?", text)
    assert "B.B.A" not in found and "Harlan School of Business" in found


def test_a_name_the_noun_asked_stands_beside_outranks_a_quoted_title():
    text = ('Since 1996, he and co-owner Ann Roe have run a London-based production company, Tall Grass Films, '
            'through which the pair have made "The Orchard" and "Low Tide".')
    asked = "What production company co-owned by Ann Roe made Low Tide?"
    from boundloop.reasoners.offline.candidates import best
    assert best(_unit(text), expected_answer(asked), asked).text == "Tall Grass Films"


def test_a_date_with_its_year_says_more_than_one_without():
    from boundloop.reasoners.offline.candidates import best
    text = ("The second single from the album, out in the UK on 31 July and 20 July 1981, reached the top ten in "
            "Canada, Ireland, New Zealand, Norway and Sweden, spent eleven weeks on the charts in the Netherlands and "
            "Belgium, and was later covered by several bands on both sides of the Atlantic, among them three from "
            "Scotland, two from Wales and one from the west of Ireland, none of which charted anywhere at all.")
    asked = "When was the second single from the album released?"
    assert best(_unit(text), expected_answer(asked), asked).text == "20 July 1981"


def test_a_question_ending_on_what_is_answered_by_the_words_the_passage_puts_after_its_own():
    magazine = evidence("m", "Harbour Weekly", "Harbour Weekly was a magazine regarded as an important voice for "
                        "self-management, a form of management based on self-directed work processes.")
    assert short_answer("Harbour Weekly was a magazine regarded as an important voice for a form of management based "
                        "on what?", magazine) == "self-directed work processes"
    text = ("It opened in 1981. In 1986 the world's first indoor ski slope was built there by the German engineer "
            "Tomas Brand.")
    found = lambda question: [text[s:e] for s, e in fills(question, text)]  # noqa: E731
    assert found("The arena is home to the world's first what?") == ["indoor ski slope"]
    assert found("It was built by a German what?") == ["engineer"]
    assert found("It was opened first by what?") == []  # one lower-case word is too little to find the gap by
    assert found("Who built the world's first indoor ski slope?") == []
    # a kind asked of a noun is the word the passage puts before that noun
    assert found("What was built in 1986 by the engineer, what kind of slope?") == ["ski"]
    clergyman = evidence("c", "Ewan Rae", "Ewan Rae (1796-1865) was a Varnian clergyman, an opponent of the Harbour "
                         "Movement, and a writer of devotional literature.")
    assert short_answer("The Harbour Movement was opposed by a clergyman who wrote what type of literature?",
                        clergyman) == "devotional"


def test_the_first_of_two_names_joined_by_and_is_no_answer_when_the_question_gives_it():
    text = "He served John Casimir, who was King of Poland and Grand Duke of Lithuania."
    found = _values("Who was the King that Tomas served, as he was known in Poland?", text)
    assert "John Casimir" in found and "King of Poland" not in found


def test_a_subject_its_own_sentence_calls_the_noun_asked_is_headed_by_it():
    from boundloop.reasoners.offline.candidates import best
    question = "Which ground force of the Varnian Dual Monarchy did Tomas Brand join?"
    unit = _unit("The Varnian Army (Kaiserliche Armee) was the ground force of the Varnian Dual Monarchy from 1867 to "
                 "1918, formed from the Imperial Army.")
    found = best(unit, expected_answer(question), question)
    assert found is not None and found.text == "Varnian Army" and found.headed


def test_a_measure_the_question_names_is_answered_in_its_units():
    # 'the max block length': hours, written as 'h' too; a bare count is no length
    assert _values("whats the max block length for booking the lathe?",
                   "Decision: the lathe's max block stays at 3 h, and 2 people may book it.") == ["3 h"]
    assert measure_units("what's the duration of the induction?") is not None
    # 'what temp': a temperature, with its degrees, not the fluid's type number
    assert _values("what temp does the wash water need to be at the tap?",
                   "Wash water: Grade 2 - minimum temperature at the tap 45 °C.") == ["45 °C"]
    assert expected_answer("what temp does the wash water need to be?").kind == "number"
    assert measure_units("What is the length of the Rhine?") is not None
    assert measure_units("What is the name of the new lathe?") is None


def test_a_sentence_saying_we_do_not_use_something_does_not_supersede_its_document():
    fluids = units_of(evidence("rb", "Washing runbook", "FLUIDS\nGrade 2 - heated. Minimum temperature at the tap:\n"
                               "45 °C.\nWe do not use Grade 3 or Grade 4."), False)
    assert fluids and not any(u.superseded for u in fluids)
    for banner in ("DO NOT USE - replaced in 2025", "Do not use this version for new requests."):
        assert all(u.superseded for u in units_of(evidence("old", "Washing runbook", f"{banner}\nGrade 2."), False))


def test_how_many_of_a_unit_of_time_takes_a_value_in_that_unit():
    from boundloop.reasoners.offline.measures import measure_units

    weeks = measure_units("How many weeks of parental leave do employees in Oslo get?")
    assert weeks is not None and weeks.search("16 weeks") and not weeks.search("41 hours per week")
    days = measure_units("How many days annual leave do control room staff get?")
    assert days is not None and days.search("25 working days") and not days.search("30 minutes")
    hours = measure_units("how many hours is a night shift?")
    assert hours is not None and hours.search("12 h")
    assert short_answer("How many weeks of parental leave do employees in Oslo get?",
                        evidence("hours", "Oslo office", "Employees in Oslo work 41 hours per week.")) is None


def test_a_mobile_number_is_no_desk_extension():
    directory = evidence("dir", "Staff directory", "Name: Ola Berg; Role: Chief Underwriting Officer; Extension: 2201")
    assert short_answer("what's Ola Berg's mobile number?", directory) is None
    assert short_answer("what's Ola Berg's extension?", directory) == "2201"
    phones = evidence("phones", "Company phones", "Name: Ola Berg; Mobile: +44 7700 900123; Extension: 2201")
    assert short_answer("what's Ola Berg's mobile number?", phones) == "+44 7700 900123"
