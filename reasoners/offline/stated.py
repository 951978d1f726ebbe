"""What the question already states, which cannot be its answer.

A name it gives ('the Livesey Hal War Memorial', however typed), a value it holds ('above EUR 5,000'), a code or an
address as written.
"""

from __future__ import annotations

import re
from functools import lru_cache

from boundloop.domain.text import stems, values
from boundloop.reasoners.offline.vocabulary import words

LITERAL_KINDS = {"code", "postcode", "url", "email", "phone", "room"}
"""Kinds stated only as written: '/room' is not stated by 'book a room'."""


def stated_by_question(span: str, kind: str, question: str, question_stems: set[str],
                       question_values: set[str]) -> bool:
    """Whether the question already states this span (then it cannot be the answer).

    Codes, addresses and numbers count as stated only when the question holds them as written ('/room' is not
    stated by 'book a room').
    """
    if kind in LITERAL_KINDS:
        return span.lower() in question.lower()
    own = stems(span)
    if own and own <= question_stems:
        return True
    if not own and kind in ("name", "emphasis") and re.search(rf"(?<!\w){re.escape(span)}(?!\w)", question, re.I):
        return True  # a name of letters too short to have stems ('B.B.A') is stated as written
    rest = own - question_stems  # a name given with a slip of the keys: 'Livesey Hal War Memorial'
    if len(own) >= 3 and len(rest) == 1 and any(_misspelt(word, asked) for word in rest for asked in question_stems):
        return True
    if kind == "name" and _named_short(span, question):
        return True
    found = set(values(span))
    return bool(found) and found <= question_values


_SHORT_NAME = re.compile(r"\b([A-Z][a-z]{2,})\s+(?:[A-Z]\.\s+)?([A-Z][\w'’-]+)")
_SUFFIXES = words("name_suffixes")


def _named_short(span: str, question: str) -> bool:
    """Whether `span` is a person's full name that the question gives in short.

    'Walt Williams' gives 'Walter Ander "The Wizard" Williams': the same last name, and a first name that the
    question's shortens. The same first name is not enough: 'John Adams' does not give 'John Quincy Adams'.
    """
    words = [w.strip(".,") for w in span.split()]
    while len(words) > 2 and words[-1] in _SUFFIXES:
        words.pop()
    return len(words) >= 2 and any(words[-1] == last and words[0].startswith(first) and words[0] != first
                                   for first, last in _short_names(question))


@lru_cache(maxsize=256)
def _short_names(question: str) -> list[tuple[str, str]]:
    """The first and last words of each person's name the question gives.

    Kept per question: every candidate of every unit asks again.
    """
    return _SHORT_NAME.findall(question)


def _misspelt(word: str, typed: str) -> bool:
    """Whether `typed` is `word` with its last letter left off or one more added ('hal' for 'hall')."""
    short, long = sorted((word, typed), key=len)
    return len(short) >= 3 and len(long) - len(short) == 1 and long.startswith(short)
