"""Names typed in lower case: 'rooms at calderbrook general' reads as the 'Calderbrook General' the documents name.

People type questions without capitals; the reader finds names by them (whose rows, which site). In a question typed
all in lower case, a word that the evidence always writes capitalised, and at least once where no sentence starts,
is a name's word.
"""

from __future__ import annotations

import re

from boundloop.domain.models import Evidence
from boundloop.domain.words import STOPWORDS

_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def cased(question: str, evidence: list[Evidence]) -> str:
    """The question with each lower-case word the evidence only ever writes as a name written as one.

    Only a question typed without capitals (its first letter aside) is read so: one that capitalises its names
    says which words they are.
    """
    if any(c.isupper() for c in question.lstrip()[1:]):
        return question
    texts = [f"{e.title}\n{e.text}" for e in evidence]
    capitalised: set[str] = set()
    lowered: set[str] = set()
    for text in texts:
        for match in _WORD.finditer(text):
            word = match.group(0)
            if word.islower():
                lowered.add(word)
            elif word[0].isupper() and not _starts_sentence(text, match.start()):
                capitalised.add(word.lower())

    def restore(match: re.Match[str]) -> str:
        word = match.group(0)
        if word.islower() and len(word) > 2 and word not in STOPWORDS and word in capitalised - lowered:
            return word[0].upper() + word[1:]
        return word

    return _WORD.sub(restore, question)


def _starts_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in ".!?;|#*-–•\"“(" or "\n" in text[len(before):start]
