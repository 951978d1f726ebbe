"""The value a unit gives for a field, read from its structure first, then from a sentence that states it.

Structure: a table row's cell under a header naming the field ('Wireless network' in an Item column, its value in
the next), a `Label: value` line whose label names it ('Wifi (staff): MGW-HOLLIN-OPS — password from ...'), a line
under a heading naming it ('WIFI' over 'Staff network: SKH-GDY-Staff'; '### SITE MANAGER' over 'Beatriz Lopes').
Sentences: 'The first-aid contact for the site is Farah Iskandar', 'Hamish Colquhoun is the site manager', the
emphasised words of a sentence naming it ('Staff wifi is **MGW-STENNING**'), a value-shaped word naming it ('the
Kestrel-SG-Staff network'). A value of a kind with a form (an extension, a postcode) is that form, found in what the
structure gives ('call **ext. 4112** (first-aid room F0.02)' -> 'ext. 4112').
"""

from __future__ import annotations

import re
from typing import NamedTuple

from boundloop.domain.text import stems
from boundloop.reasoners.offline.fields import Field
from boundloop.reasoners.offline.spans import finditer, spans
from boundloop.reasoners.offline.units import Unit, plain

FORMED = frozenset({"phone", "postcode", "email", "url", "room", "code", "time", "date", "amount"})
"""Kinds whose value has a form of its own: only that form answers."""
SHORT_VALUE = 8
MAX_LABEL = 6
"""A label has at most this many words ('Site manager extension'); a longer one is a sentence with a colon."""
"""A line under a heading naming the field is its value when it is this short ('Beatriz Lopes (Centre Manager)')."""
STRUCTURE, SENTENCE, QUALIFIED = 3, 2, 1
"""How a value was read: from the document's structure, from a sentence naming the field, or from one naming only
every other word of it ('Staff should connect to the Kestrel-SG-Staff network' for 'the staff wifi network')."""


class FieldValue(NamedTuple):
    value: str
    how: int
    label: str
    """The words that named the field where the value was read (a header, a label, a heading, a sentence)."""


_LABELLED = re.compile(r"^\W*(?:\*\*|__)?([^:*_]{1,60}?)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.+)$")
_BOLD = re.compile(r"\*\*([^*]{1,80})\*\*|__([^_]{1,80})__")
_STATED = re.compile(r"^(?:the\s+|our\s+)?((?:[\w'’-]+\s+){1,8}?)(?:is|are)\s+(?!not\b|no\b|a\b|an\b)(.+)$", re.I)
"""'The Station Manager is Sérgio Anjos': a sentence that opens on the field and says what it is."""
_IS_THE = re.compile(r"^(.{3,60}?)\s+(?:is|are)\s+(?:the|our)\s+((?:[\w'’-]+\s*){1,6})[.!]?$",
                     re.I)
"""'Hamish Colquhoun is the site manager.': a sentence that says what its subject is."""
_LEAD_IN = re.compile(r"^\W*(?:\*\*|__)[^*_]{1,40}[.:](?:\*\*|__)\s*")
"""A paragraph's emphasised opening words ('**Who runs it.**'), a label of the paragraph rather than its sentence."""
_VALUE_END = re.compile(r"\s+[—–-]\s|\s\(|;|\.(?:\s|$)|,\s|\s+at\s")
_NEGATED = re.compile(r"\b(?:no|not|none|n/a)\b", re.I)
_TOKEN = re.compile(r"[^\s,;:()]+")
_VALUE_SHAPED = re.compile(r"^(?=.*[A-Z0-9])(?:\w+[-_./]\w[\w./-]*|\w*\d\w*|[A-Z]\w*[A-Z]\w*)$")
"""A word shaped like a value rather than prose: a code ('Kestrel-SG-Staff', 'MGW_OPS'), a number, an inner capital."""


def _trimmed(value: str) -> str:
    bold = _BOLD.search(value)
    if bold:  # 'staff network is **MGW-CORP** (sign in ...)': the marked words are the value
        value = next(g for g in bold.groups() if g)
    value = value.replace("**", "").replace("__", "").strip()
    end = _VALUE_END.search(value)
    return (value[:end.start()] if end else value).strip(" .,:;*_")


def _of_kind(raw: str, field: Field) -> str | None:
    """The value as the kind asked wants it: its form's span for a formed kind, else the words up to its remarks."""
    if field.kind in FORMED:
        found = spans(field.kind, plain(raw))
        return found[0] if found else None
    value = _trimmed(raw)
    if not value or field.named_by(set(stems(value))) or _NEGATED.match(value):
        return None
    return value


def _said(text: str) -> set[str]:
    return set(stems(text))


def field_value(unit: Unit, field: Field) -> FieldValue | None:
    """The value `unit` gives for `field`, how it was read, and the words that named the field; else None."""
    text = unit.text
    pairs = [pair.split(": ", 1) for pair in plain(text).split("; ")]
    if len(pairs) > 1 and all(len(pair) == 2 for pair in pairs):
        for i, (header, cell) in enumerate(pairs):
            if field.named_by(_said(header)) and not field.named_by(_said(cell)):
                return _found(cell, field, STRUCTURE, header)
            if field.named_by(_said(cell)) and i + 1 < len(pairs):
                return _found(pairs[i + 1][1], field, STRUCTURE, cell)
        return _by_form(plain(text), field) or _in_heading(unit, field)
    labelled = _LABELLED.match(text)
    if labelled and len(labelled.group(1).split()) > MAX_LABEL:
        labelled = None  # 'Reach the ops room on ext. 4200 between 04:00 and ...' is a sentence, not a label
    if labelled and field.named_by(_said(labelled.group(1))):
        return _found(labelled.group(2), field, STRUCTURE, labelled.group(1))
    titled = _LABELLED.match(unit.heading)  # '**Wifi:** SKH-SVG-Office' is read as the heading of what follows
    if titled and len(titled.group(1).split()) <= MAX_LABEL and field.named_by(_said(titled.group(1))):
        return _found(titled.group(2), field, STRUCTURE, titled.group(1))
    under = field.named_by(_said(unit.heading)) or field.named_by(_said(unit.lead))
    if under and labelled and not _NEGATED.search(labelled.group(1)) and \
            (found := _found(labelled.group(2), field, STRUCTURE, f"{unit.heading} {labelled.group(1)}")):
        return found  # 'WIFI' over 'Staff: FD-LDS-CC'
    if under and (_short_line(plain(text)) or field.kind == "person" and _opens_on_name(plain(text))) and \
            (found := _found(text, field, STRUCTURE, unit.heading)):
        return found  # '### SITE MANAGER' over 'Beatriz Lopes (Training Centre Manager)'; a sentence is read below
    return _in_sentence(text, field) or _in_heading(unit, field)


def _short_line(text: str) -> bool:
    """A line short enough to be a value, and no sentence: 'Beatriz Lopes (Training Centre Manager)'."""
    return len(text.split()) <= SHORT_VALUE and not text.endswith((".", "!", "?"))


def _opens_on_name(text: str) -> bool:
    """A line that opens on a name and goes on with a remark ('Magdalena Lis — first aider, BHP office')."""
    return any(start == 0 and _VALUE_END.match(text, end) for start, end in finditer("name", text))


def _found(raw: str, field: Field, how: int, label: str) -> FieldValue | None:
    value = _of_kind(raw, field)
    return FieldValue(value, how, label) if value else None


def _by_form(text: str, field: Field) -> FieldValue | None:
    """A value of the form asked, for a field asked by its form alone, whatever labels it.

    'Unit 5, Tyndall Street, Cardiff CF10 4BZ' gives 'the postcodes of all our offices'.
    """
    return _found(text, field, QUALIFIED, "") if field.by_form and field.kind in FORMED else None


def _in_heading(unit: Unit, field: Field) -> FieldValue | None:
    """A value of the form asked that the unit's heading gives: an address set in bold reads as a heading."""
    return _by_form(unit.heading, field)


def _in_sentence(text: str, field: Field) -> FieldValue | None:
    """A value a sentence naming the field states (see the module's docstring)."""
    text = _LEAD_IN.sub("", text.strip())  # '**First aid.** The first-aid contact for the site is Joanne Pike'
    sentence = plain(text)
    if found := _by_form(sentence, field):
        return found
    if not field.named_by(_said(sentence)):
        if len(field.qualifiers) >= 2 and all(k in _said(sentence) for k in field.qualifiers) and \
                (beside := _beside_field(text, field)):
            return FieldValue(beside, QUALIFIED, sentence)
        return None
    stated = _STATED.search(sentence)
    if stated and field.named_by(_said(stated.group(1))) and not field.named_by(_said(stated.group(2))):
        return _found(stated.group(2), field, SENTENCE, stated.group(1))
    subject = _IS_THE.search(text.replace("**", ""))
    if subject and field.named_by(_said(subject.group(2))) and not field.named_by(_said(subject.group(1))):
        return _found(subject.group(1), field, SENTENCE, subject.group(2))
    if field.kind in FORMED:
        return _found(sentence, field, SENTENCE, sentence)
    if beside := _beside_field(text, field):
        return FieldValue(beside, SENTENCE, sentence)  # 'Staff should connect to the Kestrel-SG-Staff network'
    if field.named_by(_said(_BOLD.sub(" ", text))):
        for match in _BOLD.finditer(text):
            value = next(g for g in match.groups() if g)
            lead_in = match.start() == text.find("*") and value.rstrip().endswith((".", ":"))
            if not lead_in and not field.named_by(_said(value)):  # '**Getting online.**' opens the paragraph
                return _found(value, field, SENTENCE, sentence)
    return None


def _beside_field(text: str, field: Field) -> str | None:
    """A value-shaped word just before a word of the field: 'the Kestrel-SG-Staff network'.

    Only before it, as a name stands: 'the old network EM-OLD' is a remark on the network, not its name.
    """
    words = _TOKEN.findall(text)
    for i, word in enumerate(words):
        if not i or not (field.partly_named_by(_said(word)) or field.qualified(_said(word))):
            continue
        value = words[i - 1].strip(".'\"’*")
        if _VALUE_SHAPED.match(value) and not field.named_by(_said(value)):
            return value
    return None
