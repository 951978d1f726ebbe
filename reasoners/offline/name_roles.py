"""What a name's place and form say of whether it is the answer.

A name standing where the question's own words put the answer ('developed by which company': the name after
'developed by') likely is; a name after 'by' is the doer, rarely the thing asked for ('written by David Brock' for
'what book'); a nationality word ('British') answers only a question about nationality or origin.
"""

from __future__ import annotations

import re
from functools import lru_cache

from domain.text import stem

_BEFORE_WH = re.compile(r"\b([a-z]{3,})\s+(by|in|at|from|for|with|on|into|under|as)\s+(?:which|what|whom|whose)\b",
                        re.I)
_WH_VERB = re.compile(r"^\s*(?:which|what|who)\s+(?:[a-z]+\s+){0,2}?([a-z]{3,}(?:ed|s))\b", re.I)
_AFTER_BY = re.compile(r"\bby\s+$")
DEMONYMS = frozenset("""american british english scottish welsh irish french german dutch belgian spanish portuguese
italian greek swiss austrian swedish norwegian danish finnish icelandic polish czech slovak hungarian romanian
bulgarian serbian croatian slovenian bosnian albanian russian ukrainian belarusian lithuanian latvian estonian
georgian armenian turkish israeli arab arabic egyptian moroccan algerian tunisian nigerian kenyan ethiopian ghanaian
african iranian persian iraqi syrian lebanese saudi pakistani indian bangladeshi nepalese chinese japanese korean
vietnamese thai filipino indonesian malaysian singaporean australian canadian mexican cuban brazilian argentine
argentinian chilean colombian peruvian venezuelan jamaican soviet european asian latin hispanic scandinavian
mauritian taiwanese mongolian tibetan catalan basque flemish""".split())
"""Words for where people or things are from ('British', 'South Korean'): an answer only to a question about
nationality, origin or language, never a person, a place or a thing asked for."""
_QUALIFIERS = frozenset("south north east west anglo new".split())
_ORIGIN = re.compile(r"\b(?:nationalit|national|origin|language|ethnic|citizen|descent|heritage|countr)", re.I)


@lru_cache(maxsize=256)
def alignments(question: str) -> tuple[re.Pattern[str], ...]:
    """Where the passage's answer stands by the question's own words.

    'developed by which company' is answered by the name after 'developed by'; 'Which company developed X?' by the
    name after 'developed by' too, or before 'developed'. Kept per question: every unit of the evidence asks it again.
    """
    found = []
    if match := _BEFORE_WH.search(question):
        found.append(re.compile(rf"\b{re.escape(stem(match.group(1).lower()))}\w*\s+{match.group(2)}\s+$", re.I))
    if match := _WH_VERB.search(question):
        verb = re.escape(stem(match.group(1).lower()))
        found.append(re.compile(rf"\b{verb}\w*\s+by\s+$", re.I))
        found.append(re.compile(rf"^\s*(?:has\s+|had\s+|was\s+|is\s+)?{verb}\w*\b", re.I))
    return tuple(found)


def aligned(patterns: tuple[re.Pattern[str], ...], text: str, start: int, length: int) -> bool:
    """Whether a name stands where an alignment of the question puts the answer."""
    before, after = text[max(0, start - 40):start], text[start + length:start + length + 40]
    return any(p.search(before) if p.pattern.endswith("$") else p.search(after) for p in patterns)


def after_by(text: str, start: int) -> bool:
    """Whether a name follows 'by' ('written by David Brock')."""
    return _AFTER_BY.search(text[max(0, start - 4):start]) is not None


def unasked_nationality(span: str, question: str) -> bool:
    """Whether `span` is a word for where someone is from ('British', 'South Korean') that the question does not ask.

    A question about nationality, origin or language asks it.
    """
    words = re.split(r"[\s-]+", span.lower())
    return words[-1] in DEMONYMS and all(w in DEMONYMS or w in _QUALIFIERS for w in words) and \
        not _ORIGIN.search(question)
