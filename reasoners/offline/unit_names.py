"""The names a unit mentions and the names it is about: what chains link units by.

A unit is about the name it opens with, its row's label and the cells that name someone or something ('Name: Priya
Raman; Role: Head of Finance'); a document is about its title's subject ('Legal Contract Desk' of 'Legal Contract
Desk - How to Get a Contract Reviewed').
"""

from __future__ import annotations

import re

from boundloop.domain.names import TITLE_PARTS, in_order, title_keys
from boundloop.reasoners.offline.places import name_key
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.spans import finditer
from boundloop.reasoners.offline.vocabulary import words

_IDENTITY = re.compile(r"\b(name|role|team|person|who|system|tool|title|owner|lead|room|contact|service|venue|"
                       r"location|place|host|desk|office|site|building|approver|manager|head|provider|vendor|"
                       r"platform)\b", re.I)
_CONNECTORS = words("name_connectors")
_NOT_OPENERS = words("not_name_openers")

_LIST_PARTS = re.compile(r",\s|;\s|\s/\s")


def titled(title: str) -> set[str]:
    """A document's title keys, and its subject: the part before ' - ' or ': ' ('Legal Contract Desk')."""
    subject = name_key(TITLE_PARTS.split(title, maxsplit=1)[0])
    return title_keys(title) | ({subject} if subject else set())


def pointed_cells(reading: Reading) -> set[str]:
    """Values of cells whose header names a person, place or thing ('Host room: Belém auditorium, Lisbon office').

    Whole and by their comma-separated parts: a cell's value names something however it is capitalised.
    """
    found: set[str] = set()
    for cell in reading.unit.cells:
        if cell.header and _IDENTITY.search(cell.header) and len(cell.value.split()) <= 8:
            found |= {name_key(part) for part in [cell.value, *_LIST_PARTS.split(cell.value)]}
    return found - {""}


def named_again(text: str, earlier: set[str]) -> set[str]:
    """The earlier full names a sentence opens by naming again in part ('Jonas sits...' after 'Jonas Weber')."""
    opening = re.match(r"([A-Z][\w'’-]+)\b", text)
    if not opening or opening.group(1).lower() in _NOT_OPENERS:
        return set()
    word = opening.group(1).lower()
    # a person's name: two or three words, none a connector ('Head of Security' is a role, not a name)
    people = {name for name in earlier if 2 <= len(name.split()) <= 3 and not set(name.split()) & _CONNECTORS}
    return {name for name in people if word in (name.split()[0], name.split()[-1])}


def names_of(text: str) -> set[str]:
    """The whole names a text mentions, normalised ('IT Service Desk', not also 'Service Desk' or 'Desk')."""
    return {name_key(text[s:e]) for s, e in finditer("name", text)} - {""}


def subjects_of(reading: Reading) -> set[str]:
    """The names a unit is about: the name it opens with, its row label, and cells that name someone or something."""
    unit = reading.unit
    names = {name_key(in_order(c.value)) for c in unit.cells if not c.header or _IDENTITY.search(c.header)}
    names |= {name_key(n) for c in unit.cells if not c.header or _IDENTITY.search(c.header)
              for n in names_of(c.value)}
    text = unit.plain
    parts = re.split(r":\s|\s[-–—]\s|\(", text, maxsplit=1)
    head = parts[0]
    if len(head) > 80:
        head = " ".join(text.split()[:6])
    names |= names_of(head)
    if len(parts) > 1 and head[:1].isupper() and len(head.split()) <= 4:
        names.add(name_key(head))  # a label names what its line is about ('Belém - auditorium, ...')
    return names - {""}
