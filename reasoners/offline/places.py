"""Where someone or something is: a directory row's site, and the page about that site.

'Site: Glasgow' in a directory row is the 'Glasgow Office – Site Information' page's place; 'Site: Hollinbrook WTW' is
the 'Site Guide — Hollinbrook Water Treatment Works' page's.
"""

from __future__ import annotations

import re

from boundloop.domain.names import normalise_name
from boundloop.domain.place_kinds import PLACE_KIND
from boundloop.reasoners.offline.reading import Reading

_AND = re.compile(r" and (?=\w)")


def name_key(name: str) -> str:
    """A name as chains compare it: 'Parking & Security Manager' is the 'Parking and Security Manager'."""
    return _AND.sub(" ", normalise_name(name))




def asks_a_place(question: str) -> bool:
    """Whether the question asks about a place by its kind ('the office Dawid works at', 'the site where ...')."""
    return bool(PLACE_KIND.search(question))


def places(reading: Reading) -> set[str]:
    """The values of a unit's cells naming where someone or something is ('Site: Glasgow')."""
    return {c.value.strip() for c in reading.unit.cells
            if c.header and PLACE_KIND.search(c.header) and 0 < len(c.value.split()) <= 4} - {""}


def same_place(place: str, title_part: str) -> bool:
    """Whether a title's part names the place.

    It opens with it ('Glasgow Office' for 'Glasgow'), follows a kind of place ('Terminal Gdynia'), or spells out the
    place's abbreviated end ('Hollinbrook Water Treatment Works' for 'Hollinbrook WTW', 'Caddon Marsh Wastewater
    Treatment Works' for 'Caddon Marsh WwTW').
    """
    key, part = name_key(place), name_key(title_part)
    if part == key or part.startswith(f"{key} "):
        return True
    # a kind of place before its name: 'Terminal Gdynia', 'Station Porto', 'Campus North'
    kind, _, rest = part.partition(" ")
    if rest == key and PLACE_KIND.fullmatch(kind):
        return True
    *named, abbreviation = place.split()
    words = title_part.split()
    if not named or not re.fullmatch(r"[A-Z][A-Za-z]{1,5}", abbreviation) or len(words) <= len(named) or \
            name_key(" ".join(words[:len(named)])) != name_key(" ".join(named)):
        return False
    initials = "".join(w[0] for w in words[len(named):] if w[:1].isupper())
    return initials == "".join(c for c in abbreviation if c.isupper())
