"""Lists across sibling documents: one field asked 'at each of our sites' is read from every document that gives it.

'What are the staff wifi names at each of our sites?' is one question per site guide. The rule reads the question
without its distributive phrase ('what are the staff wifi names'), reads the field from each document of the family
by its meaning (`fields.py`, `field_values.py`: structure first, then a sentence stating it), and answers one item
per document, each citing its own passage. It applies only when at least two documents give a value; the siblings
held that give none are named.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import NamedTuple

from boundloop.domain.text import stems
from boundloop.domain.words import content_terms
from boundloop.reasoners.offline.field_values import field_value
from boundloop.reasoners.offline.fields import Field, family_words
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.spans import finditer
from boundloop.reasoners.offline.vocabulary import words

_COUNT = r"(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+"
_DISTRIBUTIVE = re.compile(
    r"\b(?:(?:each|every)\s+(?:of\s+)?(?:(?:our|the|your|its)\s+)?|all\s+(?:of\s+)?(?:our|the|your|its)\s+"
    rf"|all\s+(?={_COUNT})|(?:(?<=\bof\s)|(?<=\bat\s)|(?<=\bfor\s)|(?<=\bin\s)|(?<=\bacross\s))(?:our|your)\s+"
    rf"(?={_COUNT}))(?:{_COUNT})?"
    r"((?:[\w'’-]+\s+){0,3}?[\w'’-]+)(?=,?\s*(?:(?:please|pls|thanks)\b)?\s*[?.!]*\s*$)", re.I)
"""'at each of our sites', 'for every site', 'each of our three treatment works', 'for all four sites', 'of our three
terminals': the family the list runs over, ending the question (so neither 'Do all staff need a badge?' nor '... list
each share. Go ahead.' is one)."""
MIN_DOCUMENTS = 2
MAX_ITEMS = 12


def single_question(question: str) -> str | None:
    """The question asked of one member of the family ('... at each of our sites?' -> '...?'), or None."""
    match = _DISTRIBUTIVE.search(question)
    if match is None:
        return None
    rest = f"{question[:match.start()]}the {match.group(1)}{question[match.end():]}"
    rest = re.sub(r",?\s*\b(?:please|pls|thanks)\b", "", rest, flags=re.I).strip()
    rest = re.sub(r"^(?:can you\s+|please\s+)?(?:list|give me|tell me)\s+(?:all\s+)?(?:the\s+)?", "what is the ", rest,
                  flags=re.I)
    rest = re.sub(r"^(what|which|who)\s+are\b", r"\1 is", rest, flags=re.I)
    return rest if len(rest.split()) >= 2 else None


_GENERIC = words("generic_field_words")


def field_terms(question: str) -> str:
    """The words of the field a distributive question asks, without its family, for a keyword search.

    'wifi network' of '... names at each of our sites': what every sibling document's passage shares.
    """
    match = _DISTRIBUTIVE.search(question)
    if match is None:
        return ""
    family = set(content_terms(match.group(1)))
    return " ".join(t for t in content_terms(question[:match.start()]) if t not in family and t not in _GENERIC)


def family_terms(question: str) -> set[str]:
    """The stems of the family a distributive question runs over ('each of our sites' -> {'site'})."""
    match = _DISTRIBUTIVE.search(question)
    return set(stems(" ".join(content_terms(match.group(1))))) if match else set()


def singular(question: str, noun: str) -> str:
    """`question` with its plural head noun made singular ('the wifi names' -> 'the wifi name')."""
    if noun.endswith("ies"):
        one = noun[:-3] + "y"
    elif noun.endswith(("ses", "xes", "zes", "ches", "shes")):
        one = noun[:-2]
    else:
        one = noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun
    return re.sub(rf"\b{re.escape(noun)}\b", one, question, count=1) if one != noun else question


class Items(NamedTuple):
    """One reading per sibling document that gives the field (its answer the value), and the siblings giving none."""

    readings: list[Reading]
    without: list[str]
    """Titles of the family's documents held whose passages give no value for the field."""
    filed: str = ""
    """The words the family's file names open with ('site guide'), when they share them."""


def each_document(readings: list[Reading], field: Field, family: set[str]) -> Items:
    """Each sibling document's value for `field`, read by structure first, one reading per document.

    Of a document's units the one naming the field by its structure wins ('Wifi (staff): X' over a remark on an old
    network), then a value of the kind asked (a person's name for 'who'), then one stating more of the field's other
    words ('Staff wifi' over 'Guest wifi'). Only documents of the family count (`members`).
    """
    best: dict[str, tuple[tuple[int, bool, float, float], Reading]] = {}
    for reading in readings:
        found = field_value(reading.unit, field)
        if found is None:
            continue
        said = reading.unit.stems | set(stems(f"{found.label} {reading.unit.heading}"))
        rank = (found.how, _fits(found.value, field.kind), field.qualified(said), reading.score)
        doc = reading.unit.evidence.doc_id
        if doc not in best or rank > best[doc][0]:
            best[doc] = rank, replace(reading, answer=found.value)
    titles = {r.unit.evidence.doc_id: r.unit.evidence.title for r in readings}
    family_docs, filed = members(titles, family)
    ranked = sorted(best.items(), key=lambda item: (-item[1][0][3], item[0]))  # best read first, then by name
    kept = [r for doc, (_, r) in ranked if doc in family_docs]
    if len(kept) < MIN_DOCUMENTS:
        return Items([], [])
    return Items(kept[:MAX_ITEMS], sorted(titles[doc] for doc in family_docs if doc not in best), filed)


def _fits(value: str, kind: str) -> bool:
    """Whether a value has the shape of the kind asked: a person's name for 'who' (not 'next to the lab')."""
    return kind != "person" or any(True for _ in finditer("name", value))


def members(titles: dict[str, str], family: set[str]) -> tuple[set[str], str]:
    """The documents of the family among `titles` (doc id -> title), and the words their file names open with.

    Those whose title or file name names the family or a word for its kind of member ('Stavanger office' is one of
    'our sites'), widened to every document filed like two of them ('site-guide-*': 'Merrowgate House — Building
    Guide' filed as 'site-guide-merrowgate-house'); every document when fewer than two are named.
    """
    words = family_words(family)
    named = {doc for doc, title in titles.items() if words & set(stems(f"{title} {_words(doc)}"))}
    prefixes = Counter(prefix for doc in named if (prefix := _prefix(doc)))
    filed = {prefix for prefix, n in prefixes.items() if n >= MIN_DOCUMENTS}
    if filed:
        top = max(filed, key=lambda prefix: prefixes[prefix])
        return {doc for doc in titles if _prefix(doc) == top}, top
    return named if len(named) >= MIN_DOCUMENTS else set(titles), ""


def _prefix(doc_id: str) -> str:
    """The first two words of a file name ('site-guide-merrowgate-house' -> 'site guide'), '' for fewer than three."""
    words = _words(doc_id).split()
    return " ".join(words[:2]) if len(words) >= 3 else ""


def _words(doc_id: str) -> str:
    """A file name's words: 'site-guide-merrowgate-house' -> 'site guide merrowgate house'."""
    return re.sub(r"[-_./]+", " ", re.sub(r"\.(?:md|txt|html?|pdf|docx?)$", "", doc_id))
