"""Words of free text: the stopwords, the content terms and acronyms written like stopwords ('the OR', 'Head of IT').

Shared by the index's query terms (`retrieval.query_terms`), the reasoners and the policies.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset(
    """a about all am an and any are as at be because been being both but by can could did do does doing each
    for from had has have having he her here hers herself him himself his how i if in into is it its itself
    just me my myself now of on or other our ours ourselves own she should so some such than that the their
    theirs them themselves then there these they this those through to too very was we were what when where
    which while who whom why will with would you your yours yourself yourselves also many much may might must
    shall whose does did done get got one two once again""".split()
) | frozenset(  # contractions typed without the apostrophe, and the halves an apostrophe leaves ("doesn't")
    """whats wheres whos hows whens im ive youre theyre dont doesnt didnt cant isnt arent wasnt werent wont
    doesn didn isn aren wasn weren hasn hadn wouldn shouldn couldn ve ll re""".split()
)


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
