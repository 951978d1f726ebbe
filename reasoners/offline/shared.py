"""What two named things have in common: 'What sport is played by both X and Y?', 'X and Y are both what?'.

The answer is a word both things are described by: each thing's own document says what it is ('Angelique Kerber is
a German professional tennis player'), and the words both descriptions share, less the question's own words, are
the candidates ('professional', 'tennis', 'player'). The one closest in meaning to what the question asks for
('sport') is the answer; a question naming no kind ('are both what?') takes the noun the descriptions end their
shared phrase with ('a party game', 'a board game': games). Adjacent shared words stay one answer ('Pulitzer
Prize').
"""

from __future__ import annotations

import re

from boundloop.domain.text import stem, stems
from boundloop.domain.words import STOPWORDS
from boundloop.reasoners.offline.answer_types import head_phrase
from boundloop.reasoners.offline.answerability import Similarity
from boundloop.reasoners.offline.compare import about
from boundloop.reasoners.offline.reading import GENERIC, Reading
from boundloop.reasoners.offline.units import chunk_ordinal
from boundloop.reasoners.offline.vocabulary import stemmed, words

_SHARED = re.compile(r"\bboth\b|\bin common\b|\bshared? by\b|\b(?:do|does|did)\b.*\bshare\b", re.I)
_PAIR = re.compile(r"\band\b", re.I)
_COPULA = re.compile(r"\b(?:is|was|are|were|has been|had been)\s+(?:an?|the|one of the)?\s*", re.I)
_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_VAGUE = words("vague_words")
"""Words a description shares by its form, not by what it says ('former', 'one')."""
_ALSO_GENERIC = stemmed("kind_naming_words")
"""Words that name no kind ('what type of', 'examples of'): the kind is the word after them."""


def _own(name: str, readings: list[Reading]) -> Reading | None:
    """The earliest unit of the thing's own document that says what it is ('X is a ...').

    Its own document is the one whose title is its name, or holds it with the fewest other words; without one, the
    earliest unit naming it.
    """
    named = stems(name)

    def extra(title: str) -> int:  # words of the title beyond the name: 'Muse' before 'Victory for the Comic Muse'
        own = stems(title)
        return len(own - named) if named <= own else 99

    found = sorted(about(name, readings), key=lambda r: (extra(r.unit.evidence.title),
                                                          chunk_ordinal(r.unit.evidence.chunk_id) or 0,
                                                          r.unit.position))
    defining = [r for r in found if _COPULA.search(r.unit.plain)]
    chosen = defining or found
    return chosen[0] if chosen else None


def _described(text: str, name: str, defining: bool = True) -> list[str]:
    """The words after the copula that says what the thing is, in order, less the thing's name.

    The whole text's words when it has no copula or is not `defining` (a later sentence of its document).
    """
    match = _COPULA.search(text) if defining else None
    rest = text[match.end():] if match else text
    named = stems(name)
    return [w for w in _WORD.findall(rest) if not (stems(w) and stems(w) <= named)]


def _document(reading: Reading, readings: list[Reading]) -> list[Reading]:
    """The units of the reading's document, in reading order."""
    return sorted((r for r in readings if r.unit.evidence.doc_id == reading.unit.evidence.doc_id),
                  key=lambda r: (chunk_ordinal(r.unit.evidence.chunk_id) or 0, r.unit.position))


def _phrases(first: list[str], other: set[str], asked: set[str]) -> list[str]:
    """Runs of words of `first` that the other description also has, less stopwords and the question's words."""
    runs: list[list[str]] = []
    current: list[str] = []
    for word in [*first, ""]:
        key = stem(word.lower()) if word else ""
        keep = bool(word) and key in other and word.lower() not in STOPWORDS and key not in asked and \
            word.lower() not in _VAGUE and key not in GENERIC and len(word) > 2
        if keep:
            current.append(word)
        elif current:
            runs.append(current)
            current = []
    return list(dict.fromkeys(" ".join(run) for run in runs))


def _plural(word: str) -> str:
    if word.endswith(("x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def shared_trait(question: str, names: list[str], readings: list[Reading], similarity: Similarity | None,
                 proper: bool = False, many: bool = False) -> tuple[str, list[Reading]] | None:
    """The trait two named things share and the unit saying it of each; None unless the question asks one.

    `proper`: the question asks for a place, a person or a name, so only a capitalised trait answers.
    `many`: the question asks a list ('Which holidays do both offices observe?'), which one name from the rest of
    their documents does not answer.
    """
    if similarity is None or not names or not _SHARED.search(question) or not _PAIR.search(question):
        return None
    parts = [part.strip() for name in names for part in _PAIR.split(name) if part.strip()]  # 'X and Y' is two
    if len(parts) < 2:
        return None
    first, second = parts[:2]
    one, two = _own(first, readings), _own(second, readings)
    if one is None or two is None or one.unit is two.unit:
        return None
    units = [one, two]
    asked = set(stems(question)) - _ALSO_GENERIC
    words = [_described(r.unit.plain, n) for r, n in zip(units, (first, second), strict=True)]
    found = _usable(_phrases(words[0], {stem(w.lower()) for w in words[1]}, asked), question, proper)
    if not found and not many:  # what they are shares nothing asked: the names the rest of both documents give
        documents = [_document(u, readings) for u in units]
        found = _named_by_both(units, documents, (first, second), asked, question)
        units = [_saying(found, u, d) for u, d in zip(units, documents, strict=True)] if found else units
    if not found:
        return None
    # a kind word both descriptions hold is what they are, not what is asked ('plant' of 'type of plant categorization')
    described = {stem(w.lower()) for w in words[0]} & {stem(w.lower()) for w in words[1]}
    kind = [w for w in head_phrase(question) if stem(w) not in _ALSO_GENERIC and w not in STOPWORDS and
            stem(w.lower()) not in described]
    if kind:  # the phrase, or one word of it, closest to the kind asked ('sport': 'tennis' of 'tennis player')
        options = list(dict.fromkeys([*found, *(w for f in found if " " in f for w in f.split())]))
        cosines = similarity(" ".join(kind), options)
        answer = max(zip(cosines, options, strict=True))[1]
    else:
        # 'X and Y are both what?': the first shared phrase ('a party game' and 'a board game': games)
        answer = found[0]
        if re.search(r"\b(?:are|were) both\b", question, re.I) and re.fullmatch(r"[a-z]+[^s]", answer):
            answer = _plural(answer)
    return answer, [units[0], units[1]]


def _usable(found: list[str], question: str, proper: bool) -> list[str]:
    """The shared phrases that can answer.

    Only a name when a name is asked ('based out of where?').
    """
    return [f for f in found if f[:1].isupper() or not proper]


def _named_by_both(units: list[Reading], documents: list[list[Reading]], names: tuple[str, str], asked: set[str],
                   question: str) -> list[str]:
    """The names both things' documents give beyond what they are ('native to ... Chile' in each), in order.

    `documents`: the units of each thing's document, as `_document` gives them.
    """
    whole = [[w for r in document for w in _described(r.unit.plain, n, False) if r is not u]
             for u, document, n in zip(units, documents, names, strict=True)]
    found = _usable(_phrases(whole[0], {stem(w.lower()) for w in whole[1]}, asked), question, True)
    return [f for f in found if all(any(_whole_name(f, r.unit.plain) for r in document) for document in documents)]


def _whole_name(phrase: str, text: str) -> bool:
    """Whether the text names `phrase` on its own, not as the end of a longer name ('America' of 'South America')."""
    return any(not re.search(r"\b[A-Z][\w'’-]*\s+$", text[:m.start()])
               for m in re.finditer(rf"\b{re.escape(phrase)}\b", text))


def _saying(found: list[str], thing: Reading, document: list[Reading]) -> Reading:
    """The first unit of the thing's document that holds a shared phrase, to cite; the defining unit without one."""
    keys = [set(stems(f)) for f in found]
    return next((r for r in document if any(k <= r.unit.stems for k in keys)), thing)
