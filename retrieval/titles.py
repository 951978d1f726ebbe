"""Title links: find the permitted documents whose title names one of a list of names.

A title lookup follows a mention ("approved by the Head of Finance") to the document about it, which a relevance
search for the whole question often misses; how names and titles are keyed is `domain.names`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boundloop.domain.names import normalise_name, title_keys


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
