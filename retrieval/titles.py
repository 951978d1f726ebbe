"""Title links: find the permitted documents whose title names one of a list of names.

Documents often name another document's subject ("approved by the Head of Finance", "her role in
"Into the Badlands""). A title lookup follows such a mention to the document about it, which a relevance search
for the whole question often misses. A title matches a name when one of its keys equals the normalised name:
the whole title, the title without a trailing parenthesis ("Brooklyn (film)" -> "brooklyn") and the part before
the first comma ("Christies Beach, South Australia" -> "christies beach").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

NAME_SEPARATOR = "|"
MAX_NAMES = 600
_NON_WORD = re.compile(r"[\W_]+")
_TRAILING_PARENTHESIS = re.compile(r"\s*\([^)]*\)\s*$")


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


@dataclass(frozen=True)
class TitledDocument:
    """A document reachable by a title key: its lead chunk and its ACL."""

    doc_id: str
    lead_chunk_id: str
    acl: frozenset[str]


class TitleLexicon:
    """Title keys of one index generation, for backends that look titles up in process (the embedded index).

    It answers with documents whose ACL the caller's filter permits, before the limit is applied, exactly as the
    keyword and dense sides filter inside their queries.
    """

    def __init__(self, generation: str, documents: list[tuple[str, str, str, frozenset[str]]]) -> None:
        """`documents` rows: (doc_id, title, lead chunk id, acl)."""
        self.generation = generation
        self._by_key: dict[str, list[TitledDocument]] = {}
        for doc_id, title, lead, acl in documents:
            entry = TitledDocument(doc_id, lead, acl)
            for key in title_keys(title):
                self._by_key.setdefault(key, []).append(entry)

    def lookup(
        self, names: list[str], permits: Callable[[frozenset[str]], bool], limit: int
    ) -> list[tuple[str, float]]:
        """(lead chunk id, score) of permitted documents titled by the names, in the order of the names."""
        if limit <= 0:
            return []
        found: dict[str, float] = {}
        for position, name in enumerate(names):
            for entry in sorted(self._by_key.get(normalise_name(name), ()), key=lambda e: e.doc_id):
                if entry.lead_chunk_id not in found and permits(entry.acl):
                    found[entry.lead_chunk_id] = 1.0 / (1 + position)
                    if len(found) >= limit:
                        return list(found.items())
        return list(found.items())
