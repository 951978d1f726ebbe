"""Words of free text: the stopwords, the content terms and acronyms written like stopwords ('the OR', 'Head of IT').

Shared by the index's query terms (`retrieval.query_terms`), the reasoners and the policies.
"""

from __future__ import annotations

import re

from boundloop.domain.vocabulary import words

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = words("stopwords")


def content_terms(text: str) -> list[str]:
    """Lower-cased words of `text` without stopwords, in first-seen order, each once."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        if word not in STOPWORDS and (len(word) > 1 or word.isdigit()):
            seen.setdefault(word, None)
    return list(seen)


def capital_stopwords(text: str, longest: int = 5) -> list[str]:
    """Words written in capitals (two to `longest` letters) that are stopwords in lower case, lower-cased, in order.

    Acronyms spelled like stopwords: 'the OR at Tilburg', 'Head of IT', 'the US'.
    """
    return [w.lower() for w in re.findall(rf"\b[A-Z]{{2,{longest}}}\b", text) if w.lower() in STOPWORDS]
