"""Cheap text analysis shared by the offline reasoner and the verifier: terms, stems, entities, values."""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Collection
from functools import lru_cache

import snowballstemmer

from boundloop.domain.vocabulary import words
from boundloop.domain.words import STOPWORDS, capital_stopwords, content_terms

__all__ = ["stem", "stems", "entities", "name_spans", "values"]

_CAPITALISED = re.compile(
    r"(?:[A-Z][\w'’.-]*|\d[\w.,]*)(?:\s+(?:(?:of|the|and|de|da|du|von|van|for|in|on|&)\s+)*(?:[A-Z][\w'’.-]*|\d[\w.,]*))*"
)
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")
_VALUE = re.compile(
    r"(?:(?:EUR|CAD|USD|€|\$|£)\s?\d[\d,.]*(?<![.,])(?:\s?(?:million|billion|k))?"
    r"|\d[\d,.]*\s?(?:%|percent|days?|weeks?|months?|years?|hours?|km|kg|EUR|CAD|seats?|people)"
    r"|\b(?:1[5-9]|20)\d\d\b"
    r"|\b\d+(?:[.,]\d+)*\b)"
)
_LEADING = words("leading_words")



_STEMMER = snowballstemmer.stemmer("english")
_STEMMER_LOCK = threading.Lock()  # a Snowball stemmer keeps the word it works on in itself: one word at a time


_AGENT_NOUN = re.compile(r"\b([a-z]{3,}er)\b|(?:^|[.;\n]\s*)([A-Z][a-z]{2,}er)(?=:)")
"""An agent noun in running text ('the owner'), or as a label ('Owner: ...'), where it cannot be a name."""
_LETTER_COMPOUND = re.compile(r"\b([A-Za-z])-([A-Za-z]{3,})\b")
"""A word after a one-letter prefix ('E-mail', 'e-learning', 'X-ray'): typed joined too ('email')."""
_ACRONYM_PLURAL = re.compile(r"\b([A-Z]{2,6})s\b")
"""An acronym's plural ('BSCs', 'TPAs'): the acronym too ('Every BSC is certified ...')."""
_NOT_AGENTS = words("not_agent_nouns")
"""Words ending in -er that name no one who does something ('after', 'number'): no verb stem from them."""


_OVERSTEMMED = {"officer": "officer", "officers": "officer"}
"""Words the stemmer meets with others of another meaning: an 'officer' (a role) is no 'office' (a room or a site)."""


@lru_cache(maxsize=65536)
def stem(term: str) -> str:
    """The Snowball (Porter 2) English stem: 'travelling' and 'travel', 'approves' and 'approval' meet."""
    if (own := _OVERSTEMMED.get(term)) is not None:
        return own
    with _STEMMER_LOCK:
        return _STEMMER.stemWord(term)


def stems(text: str) -> set[str]:
    """The stems of a text's content words; an acronym spelled like a stopword ('Head of IT', 'the US') counts.

    An agent noun the stemmer leaves whole also gives its verb's stem ('Owner' meets 'owns', 'leader' 'leads').
    The reader asks for the same texts' stems many times (the question's above all), so they are kept.
    """
    return set(_stems(text))


def folded(text: str) -> str:
    """The text without accents ('Gdańsk' -> 'Gdansk', 'Wróbel' -> 'Wrobel'): people type names both ways."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@lru_cache(maxsize=16384)
def _stems(text: str) -> frozenset[str]:
    text = folded(text)
    found = {stem(t) for t in content_terms(text)}
    for running, label in _AGENT_NOUN.findall(text):  # 'owner' also says 'own', 'leader' 'lead'; not 'Peter'
        term = (running or label).lower()
        if stem(term) == term and term not in STOPWORDS and term not in _NOT_AGENTS:
            found.add(stem(term[:-2]))
    found |= {stem(f"{letter}{rest}".lower()) for letter, rest in _LETTER_COMPOUND.findall(text)}
    found |= {stem(acronym.lower()) for acronym in _ACRONYM_PLURAL.findall(text)}
    if not text.isupper():  # in a line of capitals every word looks like an acronym
        found |= set(capital_stopwords(text, longest=3))
    return frozenset(found)


def topic_words(text: str, keep: Collection[str], limit: int = 6) -> str:
    """The words of `text` whose stems are in `keep`, as written and in order, each once ('daily meal allowance')."""
    found: dict[str, str] = {}
    for word in re.findall(r"[A-Za-z][\w'’-]*", text):
        key = stem(word.lower())
        if key in keep:
            found.setdefault(key, word)
    return " ".join(list(found.values())[:limit])


def entities(text: str, names_only: bool = False) -> list[str]:
    """Capitalised spans and quoted strings, without leading question words; longest first, each once.

    With `names_only`, amounts are left out and so is a single capitalised word that starts a sentence
    (usually an ordinary word, not a name).
    """
    found: dict[str, None] = {}
    for quoted in _QUOTED.findall(text):
        found.setdefault(quoted.strip(), None)
    for match in _CAPITALISED.finditer(text):
        words = match.group(0).split()
        if names_only:
            before = text[: match.start()].rstrip()[-1:]
            starts_sentence = match.start() == 0 or before in {".", "!", "?", ":", "|", "-", "*", "#", ";"}
            if (len(words) == 1 and starts_sentence) or _VALUE.fullmatch(match.group(0).strip(" ,.")):
                continue
        while words and words[0].lower() in _LEADING:
            words.pop(0)
        if len(words) == 1 and words[0].lower() in _OPENING and match.start() == len(text) - len(text.lstrip()):
            continue  # 'Above what trip cost...': a question's opening preposition is no name
        while words and words[-1].lower() in _LEADING:
            words.pop()
        span = " ".join(words).strip(" ,.?!;:").removesuffix("'s").removesuffix("’s")
        if span and not span.isdigit() and len(span) > 1:
            found.setdefault(span, None)
    return sorted(found, key=len, reverse=True)

_OPENING = words("opening_prepositions")
"""Prepositions that may open a question; a title may start with one ('Before Sunrise'), so only one standing alone
at the start is dropped."""

_NOT_A_NAME_START = _LEADING - {"the", "a", "an", "all", "no", "yes", "our", "my", "your", "new"} | {"i"}
_CALENDAR = words("calendar_words")
_TOKEN = re.compile(r"\w[\w'’.&-]*")
MAX_SPAN_WORDS = 6


def calendar_words(span: str) -> bool:
    """Whether a capitalised span is only a date's words ('Sunday', 'Saturday 14 June', 'March'): no name."""
    words = [w.strip(".,") for w in span.split()]
    return bool(words) and all(w.isdigit() or w.lower() in _CALENDAR or re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", w)
                               for w in words)


def name_spans(text: str, max_words: int = MAX_SPAN_WORDS) -> list[str]:
    """Every run of up to `max_words` words that starts and ends with a capitalised word or a number.

    Quoted strings come first. A superset of the names a text mentions ('Marcus T. Reynolds', 'Into the Badlands',
    'Badlands'), for a title lookup to pick from: most spans title nothing and cost nothing. Spans starting with a
    question or function word, and spans of dates and numbers alone, are left out.
    """
    words: list[str] = []
    ends: list[bool] = []  # a sentence or clause ends after this word (an initial's full stop does not count)
    for match in _TOKEN.finditer(text):
        word = match.group(0).rstrip(".-")
        after = text[match.end() - (len(match.group(0)) - len(word)) :][:1]
        words.append(word)
        ends.append(after in {"?", "!", ";", ":", ","} or (after == "." and len(word) > 2))
    found: dict[str, None] = {quoted.strip(): None for quoted in _QUOTED.findall(text) if quoted.strip()}
    for i, first in enumerate(words):
        if not first or not (first[0].isupper() or first[0].isdigit()) or first.lower() in _NOT_A_NAME_START:
            continue
        spans: list[str] = []
        for j in range(i, min(len(words), i + max_words)):
            last, run = words[j], words[i : j + 1]
            if last and (last[0].isupper() or last[0].isdigit()) and (j > i or first.lower() not in _LEADING) \
                    and not all(w.isdigit() or w.lower() in _CALENDAR for w in run):
                spans.append(" ".join(run))
            if ends[j]:
                break
        for name in reversed(spans):  # the longest name first: 'Dana Reyes' before 'Dana'
            found.setdefault(name, None)
    return list(found)


def values(text: str) -> list[str]:
    """Amounts, counts, years and other numbers, normalised (no thousands separators)."""
    return [re.sub(r"(?<=\d),(?=\d{3})", "", v).strip() for v in _VALUE.findall(text)]
