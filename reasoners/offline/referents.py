"""What a follow-up's references point to, read from the earlier turns: the person, the thing, the place, the topic.

Each is found in what the user asked and was shown (a turn's resolved question and its short answer), never in the
passages the loop read. All are cheap string work: a few regular expressions over a handful of short texts.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from boundloop.domain.conversation import Turn
from boundloop.domain.text import entities, values
from boundloop.domain.words import STOPWORDS
from boundloop.reasoners.offline import vocabulary
from boundloop.reasoners.offline.classify import answer_type

TOKEN = re.compile(r"\w[\w'’-]*")
WH = vocabulary.words("wh_words")
AUX = vocabulary.words("auxiliaries")
PREPOSITIONS = vocabulary.words("prepositions")
DETERMINERS = vocabulary.words("determiners")
RELATIVE = vocabulary.words("relative_words")
_PLACE = re.compile(r"\b(?:in|at|from)\s+(?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*"
                    r"(?:\s+(?:office|offices|site|campus|building|branch))?")
_NOT_A_THING = ("number", "date", "yes_no", "person")


class Word(NamedTuple):
    """A word of a question and where it stands in it."""

    text: str
    start: int
    end: int

    @property
    def lower(self) -> str:
        return self.text.lower()


def words(text: str) -> list[Word]:
    return [Word(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


def is_content(word: Word) -> bool:
    return word.lower not in STOPWORDS and word.lower not in AUX and word.lower not in PREPOSITIONS


def topic_span(question: str) -> tuple[int, int] | None:
    """Where the question's topic is: the noun phrase after its question word and auxiliary ("the monthly stipend").

    It ends at the next auxiliary, relative word or preposition other than "of"; None when there is none.
    """
    ws = words(question)
    i = 0
    if i < len(ws) and ws[i].lower in WH:
        i += 1
        if i < len(ws) and ws[i].lower in ("much", "many", "long", "often"):
            i += 1
        if i < len(ws) and ws[i].lower in AUX:
            i += 1
    first = i
    while i < len(ws) and ws[i].lower not in AUX and ws[i].lower not in RELATIVE \
            and (ws[i].lower == "of" or ws[i].lower not in PREPOSITIONS):
        i += 1
    while i > first and ws[i - 1].lower in PREPOSITIONS | DETERMINERS:  # "days of" ends at "days"
        i -= 1
    if i == first or not any(is_content(w) for w in ws[first:i]):
        return None
    return ws[first].start, ws[i - 1].end


def topic(question: str) -> str | None:
    span = topic_span(question)
    return question[span[0]:span[1]] if span else None


def shape(name: str) -> tuple[int, bool]:
    """How many words a name has and whether it holds a digit: "Lisbon" and "Toronto" share one."""
    return len(name.split()), any(c.isdigit() for c in name)


def names(text: str) -> list[str]:
    """Names the text mentions (not a capitalised first word), in the order they appear, without a possessive 's."""
    found = [re.sub(r"['’]s$", "", n) for n in entities(text, names_only=True)]
    return sorted(dict.fromkeys(found), key=lambda n: text.find(n))


def person_like(name: str) -> bool:
    """A name of two to four capitalised words without digits ('Femke Jansen', 'Merrowgate House')."""
    parts = name.split()
    return 2 <= len(parts) <= 4 and all(p[:1].isupper() and not any(c.isdigit() for c in p) for p in parts)


def _name_like(answer: str) -> bool:
    """A short answer that names something (a system, a room, a network), not an amount or a sentence."""
    return len(answer.split()) <= 8 and not values(answer) and any(c.isupper() for c in answer)


def person(turns: list[Turn]) -> tuple[str, int] | None:
    """The person most recently named or asked about.

    A who-question's short answer, else a person's name in a question, else the role a "Who is ...?" question asked
    about ("the Head of IT") when its answer named nobody.
    """
    for n in range(len(turns) - 1, -1, -1):
        turn = turns[n]
        question = turn.standalone_question
        if turn.status == "answered" and turn.short_answer and answer_type(question) == "person" \
                and person_like(turn.short_answer):
            return turn.short_answer, n
        people = [name for name in names(question) if person_like(name) and " of " not in name]
        if people:
            return people[-1], n
        role = _who_is(question)
        if role:
            return role, n
    return None


def _who_is(question: str) -> str | None:
    """The person "Who is the Head of IT?" asks about: the phrase after "who is" (or was), when it names a role."""
    ws = words(question)
    if len(ws) < 3 or ws[0].lower != "who" or ws[1].lower not in ("is", "was"):
        return None
    about = topic(question)
    return about if about and any(w.text[:1].isupper() for w in words(about)) else None


def thing(turns: list[Turn]) -> tuple[str, int] | None:
    """What "it" is: the last short answer when it names something, else the last question's topic."""
    if not turns:
        return None
    n, turn = len(turns) - 1, turns[-1]
    if turn.status == "answered" and turn.short_answer and _name_like(turn.short_answer) \
            and answer_type(turn.standalone_question) not in _NOT_A_THING:
        return turn.short_answer, n
    about = topic(turn.standalone_question)
    if about:
        return about, n
    named = names(turn.standalone_question)
    return (named[0], n) if named else None


def place(turns: list[Turn]) -> tuple[str, int] | None:
    """What "there" is: the last place named after in, at or from ("in Lisbon", "at the Toronto office").

    Else a place question's short answer, else the last one-word name of a question ("Lisbon employees").
    """
    for n in range(len(turns) - 1, -1, -1):
        question = turns[n].standalone_question
        found = _PLACE.findall(question)
        if found:
            return found[-1], n
        if turns[n].short_answer and answer_type(question) == "place":
            return f"in {turns[n].short_answer}", n
        single = [name for name in names(question) if shape(name) == (1, False)]  # "Lisbon employees"
        if single:
            return f"in {single[-1]}", n
    return None
