"""The words a passage puts where a question ends on 'what'.

'Home to the world's first what?' is answered by the words after 'the world's first' in a passage ('the world's first
indoor ski slope'). A question ending on 'what' is a sentence with a gap at its end. The last words before the gap (up
to four, at least one not a stopword; one word alone only when capitalised, as 'German' of 'one German what?') are
looked for in the passage; the phrase after them, up to a punctuation mark or a word that starts a new phrase, fills
the gap. Longer contexts are tried first. Only a common noun phrase fills it: names are found as names.
"""

from __future__ import annotations

import re
from functools import lru_cache

from boundloop.domain.words import STOPWORDS

_ENDS_ON_WHAT = re.compile(r"^(.*?\S)\s+what\s*\??\s*$", re.I)
_KIND_OF = re.compile(r"\bwhat\s+(?:types?|kinds?|sorts?|genres?|forms?)\s+of\s+([a-z]+)\s*\??\s*$", re.I)
_CONTEXT_WORDS = 4
_FILL = (r"\s+[\"“]?([\w'’-]+(?:\s+(?!(?:of|in|and|or|but|that|which|who|whom|to|for|by|with|at|on|from|as|is|was|"
         r"are|were|has|had|it|its)\b)(?-i:[a-z])[\w'’-]*){0,3})")
"""The gap's words: up to four, none of them a word that starts another phrase or a name ('German mathematician Carl
Runge' fills 'one German what?' with 'mathematician')."""


def fills(question: str, text: str) -> list[tuple[int, int]]:
    """Where `text` fills the gap of a question ending on 'what', longest context first; [] for other questions.

    A question asking a kind of a noun ('wrote what type of literature?') is filled by the word the passage puts
    before that noun ('devotional literature').
    """
    patterns, never = _gaps(question)
    for pattern in patterns:
        found = [m.span(1) for m in pattern.finditer(text) if m.group(1)[:1].islower() and m.group(1) not in never]
        if found:
            return found
    return []


@lru_cache(maxsize=256)
def _gaps(question: str) -> tuple[tuple[re.Pattern[str], ...], frozenset[str]]:
    """The patterns whose first group fills the question's gap, in the order to try, and words that never fill it.

    Read once per question: every unit of the evidence asks again.
    """
    if kind := _KIND_OF.search(question):
        asked = frozenset(w.lower() for w in re.findall(r"[\w'’-]+", question))
        return (re.compile(rf"\b([a-z][\w-]+)\s+{re.escape(kind.group(1))}\b", re.I),), STOPWORDS | asked
    match = _ENDS_ON_WHAT.match(question.strip())
    if not match:
        return (), frozenset()
    words = re.findall(r"[\w'’-]+", match.group(1))
    contexts = [words[-size:] for size in range(min(_CONTEXT_WORDS, len(words)), 0, -1)]
    return tuple(re.compile(r"(?<![\w'’-])" + r"\s+".join(re.escape(w) for w in context) + _FILL, re.I)
                 for context in contexts
                 if not (all(w.lower() in STOPWORDS for w in context) or
                         len(context) == 1 and not context[0][:1].isupper())), frozenset()
