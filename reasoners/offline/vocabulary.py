"""The offline reader's word lists (`vocabulary.json` beside this module), read once at import.

`words("wh_words")` gives a list as a set for membership tests, `phrases("months")` in file order, `stemmed(name)` as
its stems; an unknown name is a KeyError naming the file. The loader is the domain layer's
(`boundloop.domain.vocabulary`).
"""

from __future__ import annotations

from pathlib import Path

from boundloop.domain.text import stems
from boundloop.domain.vocabulary import Vocabulary

FILE = Path(__file__).with_name("vocabulary.json")
VOCABULARY = Vocabulary(FILE)
words = VOCABULARY.words
phrases = VOCABULARY.phrases


def stemmed(name: str) -> frozenset[str]:
    """The list `name` as the stems the reader compares: 'contacts' and 'contact' are one 'contact'."""
    return frozenset(stems(" ".join(phrases(name))))
