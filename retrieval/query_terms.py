"""Turn free text into safe full-text query terms (no FTS syntax from the user reaches the engine)."""

from __future__ import annotations

from boundloop.domain.words import capital_stopwords, content_terms


def search_terms(text: str) -> list[str]:
    """The content terms, and any acronym written in capitals that is a stopword in lower case.

    'the OR at Tilburg', 'the IT service desk': an index that keeps every word can still find it.
    """
    terms = content_terms(text)
    return terms + [w for w in dict.fromkeys(capital_stopwords(text)) if w not in terms]
