"""Lists across sibling documents: one field asked 'at each of our sites' is read from every document that gives it.

'What are the staff wifi names at each of our sites?' is one question per site guide. The rule reads the question
without its distributive phrase ('what are the staff wifi names'), takes each document's best reading of that
question (the unit that covers it best and gives a value of the kind asked), and answers one item per document,
each citing its own passage. It applies only when at least two documents give such a value; the items keep the
order of how well each document's reading covers the question.
"""

from __future__ import annotations

import re
from dataclasses import replace

from boundloop.domain.text import stems
from boundloop.domain.words import content_terms
from boundloop.reasoners.offline.reading import Reading

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
FIELD_SHARE = 0.4
"""A document belongs in the list when its passage states this share of the field words the best one states."""


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


_GENERIC = frozenset({"name", "names", "list", "details", "detail", "what", "which", "who"})


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


def in_family(items: list[Reading], family: set[str]) -> list[Reading]:
    """The items from documents whose title or file name names the family, when at least two do; all otherwise.

    'Site Guide — Basel' is one of 'each of our sites', and so is 'Merrowgate House — Building Guide' filed as
    'site-guide-merrowgate-house'; a manual's sentence stating the field is no member.
    """
    named = [r for r in items if family & set(stems(f"{r.unit.evidence.title} {_words(r.unit.evidence.doc_id)}"))]
    return named if len(named) >= MIN_DOCUMENTS else items


def _words(doc_id: str) -> str:
    """A file name's words: 'site-guide-merrowgate-house' -> 'site guide merrowgate house'."""
    return re.sub(r"[-_./]+", " ", doc_id)


def singular(question: str, noun: str) -> str:
    """`question` with its plural head noun made singular ('the wifi names' -> 'the wifi name')."""
    if noun.endswith("ies"):
        one = noun[:-3] + "y"
    elif noun.endswith(("ses", "xes", "zes", "ches", "shes")):
        one = noun[:-2]
    else:
        one = noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun
    return re.sub(rf"\b{re.escape(noun)}\b", one, question, count=1) if one != noun else question


_LABELLED = re.compile(r"^\W*(?:\*\*|__)?([^:*_]{1,60}?)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.+)$")
_BOLD = re.compile(r"\*\*([^*]{1,80})\*\*|__([^_]{1,80})__")
_STATED = re.compile(r"^(?:the\s+)?((?:[\w'’-]+\s+){1,8}?)(?:is|are)\s+(?!not\b|no\b|a\b|an\b)(.+)$", re.I)
"""'The Station Manager is Sérgio Anjos': a sentence that opens on the field and says what it is."""
_VALUE_END = re.compile(r"\s+[—–-]\s|\s\(|;|\.(?:\s|$)|,\s")


def _trimmed(value: str) -> str:
    value = value.replace("**", "").replace("__", "").strip()
    end = _VALUE_END.search(value)
    return (value[:end.start()] if end else value).strip(" .,:;")


def field_value(text: str, field: set[str], heading: str = "") -> str | None:
    """The value a passage gives for the field, read from its structure, else None.

    A table row's cell under a header naming the field ('Wireless network' in an Item column, its value in the
    next), a `Label: value` line whose label names it ('Wifi (staff): MGW-HOLLIN-OPS — password from ...'), or the
    emphasised words of a sentence naming it ('Staff wifi is **MGW-STENNING**').
    """
    pairs = [pair.split(": ", 1) for pair in text.split("; ")]
    if len(pairs) > 1 and all(len(pair) == 2 for pair in pairs):
        for i, (header, cell) in enumerate(pairs):
            if field & set(stems(header)) and not field & set(stems(cell)):
                return _trimmed(cell) or None
            if field & set(stems(cell)) and i + 1 < len(pairs):
                return _trimmed(pairs[i + 1][1]) or None
    labelled = _LABELLED.match(text)
    if labelled and field & set(stems(labelled.group(1))):
        bold = _BOLD.search(labelled.group(2))
        return _trimmed(next(g for g in bold.groups() if g) if bold else labelled.group(2)) or None
    stated = _STATED.search(text)
    if stated and field & set(stems(stated.group(1))) and not field & set(stems(stated.group(2))):
        return _trimmed(stated.group(2)) or None  # 'The first-aid contact for the site is Farah Iskandar (ext. 6120)'
    if heading and field <= set(stems(heading)) and len(text.split()) <= SHORT_VALUE and \
            (value := _trimmed(text)) and not field & set(stems(value)):
        return value  # '### SITE MANAGER' over 'Beatriz Lopes (Training Centre Manager)'
    if beside := _beside_field(text, field):
        return beside  # 'Staff should connect to the Kestrel-SG-Staff network'
    if field & set(stems(_BOLD.sub(" ", text))):
        for match in _BOLD.finditer(text):
            value = next(g for g in match.groups() if g)
            lead_in = match.start() == text.find("*") and value.rstrip().endswith((".", ":"))
            if not lead_in and not field & set(stems(value)):  # '**Getting online.**' opens the paragraph
                return _trimmed(value) or None
    return None


SHORT_VALUE = 8
"""A line under a heading naming the field is its value when it is this short ('Beatriz Lopes (Centre Manager)')."""
_TOKEN = re.compile(r"[^\s,;:()]+")
_VALUE_SHAPED = re.compile(r"^(?=.*[A-Z0-9])(?:\w+[-_./]\w[\w./-]*|\w*\d\w*|[A-Z]\w*[A-Z]\w*)$")
"""A word shaped like a value rather than prose: a code ('Kestrel-SG-Staff', 'MGW_OPS'), a number, an inner capital."""


def _beside_field(text: str, field: set[str]) -> str | None:
    """A value-shaped word naming a field word: 'the Kestrel-SG-Staff network'.

    Only before it, as a name stands: 'the old network EM-OLD' is a remark on the network, not its name.
    """
    words = _TOKEN.findall(text)
    for i, word in enumerate(words):
        if not field & set(stems(word)):
            continue
        value = words[i - 1].strip(".'\"’") if i else ""  # before it, as a name is: 'the X network', not 'network X'
        if _VALUE_SHAPED.match(value) and not set(stems(value)) <= field:
            return value
    return None


def each_document(readings: list[Reading], field: dict[str, float]) -> list[Reading]:
    """Each document's reading that states most of the field (by weight), for the documents stating enough of it.

    `field` weighs the words of the field asked ('wifi' over 'network'): the unit of a document that states the
    rarer words gives that document's value, so a site guide's 'Staff wifi is MGW-STENNING' wins over its note on an
    old network.
    """
    def stated(reading: Reading) -> float:
        return sum(1.0 + w for k, w in field.items() if k in reading.unit.stems)

    best: dict[str, tuple[bool, float, float, Reading]] = {}
    for reading in readings:
        if not (said := stated(reading)):
            continue
        structured = field_value(reading.unit.text, set(field), reading.unit.heading)
        if structured is None and reading.answer is None:
            continue
        reading = replace(reading, answer=structured or reading.answer)
        doc = reading.unit.evidence.doc_id
        rank = (structured is not None, said, reading.score, reading)  # a field's own value before a guess
        if doc not in best or rank[:3] > best[doc][:3]:
            best[doc] = rank
    if len(best) < MIN_DOCUMENTS:
        return []
    if sum(structured for structured, *_ in best.values()) >= MIN_DOCUMENTS:  # guesses only beside no structure
        best = {doc: rank for doc, rank in best.items() if rank[0]}
    ranked = sorted(best.values(), key=lambda r: (-r[1], -r[2]))
    top = ranked[0][1]
    kept = [r for _, said, _, r in ranked if said >= top * FIELD_SHARE][:MAX_ITEMS]
    values = {(r.answer or "").casefold() for r in kept}
    return kept if len(kept) >= MIN_DOCUMENTS and len(values) == len(kept) else []
