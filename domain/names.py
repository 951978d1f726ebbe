"""Names and the titles they match: how a name is normalised, the keys a title is found by, a title query's names.

Documents often name another document's subject ("approved by the Head of Finance"); a title lookup follows such a
mention to the document about it. A title matches a name when one of its keys equals the normalised name: the whole
title, the title without a trailing parenthesis ("Brooklyn (film)" -> "brooklyn") and the part before the first comma
("Christies Beach, South Australia" -> "christies beach"). The reasoners, the plan's records and the index all read
names this one way.
"""

from __future__ import annotations

import re

NAME_SEPARATOR = "|"
MAX_NAMES = 600
_NON_WORD = re.compile(r"[\W_]+")
_TRAILING_PARENTHESIS = re.compile(r"\s*\([^)]*\)\s*$")
TITLE_PARTS = re.compile(r"\s[-–—|/]\s|:\s|[()]")
"""What separates a title's parts: 'Glasgow Office – Site Information', 'Wi-Fi: guest network', 'Terminal Gdynia
(Poland)'."""


def normalise_name(name: str) -> str:
    """Lower case; punctuation and runs of spaces become one space ('Marcus T. Reynolds' -> 'marcus t reynolds')."""
    return _NON_WORD.sub(" ", name.lower()).strip()


def base_title(title: str) -> str:
    """The title without a trailing parenthesis: 'Brooklyn (film)' is 'Brooklyn'."""
    return _TRAILING_PARENTHESIS.sub("", title.strip())


def title_keys(title: str) -> set[str]:
    """Every key a title is found by."""
    base = base_title(title)
    return {normalise_name(title), normalise_name(base), normalise_name(base.split(",")[0])} - {""}


def split_names(query: str) -> list[str]:
    """The names of a title query ('name | name | ...'): first mention first, each once, bounded.

    Backends normalise them as they normalise titles (in process here, in SQL on PostgreSQL).
    """
    seen: dict[str, str] = {}
    for part in query.split(NAME_SEPARATOR):
        key = normalise_name(part)
        if key and key not in seen:
            seen[key] = part.strip()
    return list(seen.values())[:MAX_NAMES]


def join_names(names: list[str]) -> str:
    """A title query's text from names (the inverse of `split_names`)."""
    return f" {NAME_SEPARATOR} ".join(n.replace(NAME_SEPARATOR, " ").strip() for n in names if n.strip())


_SURNAME_FIRST = re.compile(r"([A-ZÀ-Þ][\w'’-]+(?: [A-ZÀ-Þ][\w'’-]+)?), ([A-ZÀ-Þ][\w'’.-]+(?: [A-ZÀ-Þ][\w'’.-]+)?)")


def in_order(value: str) -> str:
    """A name a directory lists surname first, as people write it: 'Okafor, Fenella' is 'Fenella Okafor'."""
    match = _SURNAME_FIRST.fullmatch(value.strip())
    return f"{match.group(2)} {match.group(1)}" if match else value
