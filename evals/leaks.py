"""Leak detection: anything a user was shown, or the loop read, that comes from a document they may not see.

It is judged from the dataset's own ACLs and directory, never from the index, so a bug in the search filter
cannot hide itself. Three checks: cited or fallback documents, retrieved evidence, and answer or snippet text
containing a run of words that exists only in documents forbidden to the user.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from boundloop.evals.answers import strip_markers
from boundloop.evals.records import RunRecord

SHINGLE_WORDS = 6
"""A run of this many words found only in forbidden documents counts as quoted from them."""

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


class AccessView:
    """Who may read what, from the dataset: document -> ACL groups and user -> groups. Unknown means denied."""

    def __init__(self, acls: Mapping[str, frozenset[str]], groups: Mapping[str, frozenset[str]]) -> None:
        self.acls = dict(acls)
        self.groups = dict(groups)

    def permits(self, user: str, doc_id: str) -> bool:
        return bool(self.groups.get(user, frozenset()) & self.acls.get(doc_id, frozenset()))

    def sees_everything(self, user: str) -> bool:
        return all(self.permits(user, doc_id) for doc_id in self.acls)


def shingles(text: str, size: int = SHINGLE_WORDS) -> Iterator[tuple[str, ...]]:
    """Every run of `size` lower-cased words of `text`."""
    words = _WORD.findall(text.lower())
    for start in range(len(words) - size + 1):
        yield tuple(words[start : start + size])


class LeakDetector:
    """Finds leaks in one run's record for the user who asked."""

    def __init__(self, view: AccessView, texts: Mapping[str, str]) -> None:
        self.view = view
        self._open_users = {user for user in view.groups if view.sees_everything(user)}
        self._owners: dict[int, tuple[str, ...]] = {}
        if len(self._open_users) < len(view.groups):
            for doc_id, text in texts.items():
                for shingle in set(shingles(text)):
                    key = hash(shingle)
                    self._owners[key] = self._owners.get(key, ()) + (doc_id,)

    def findings(self, user: str, record: RunRecord) -> list[str]:
        """One line per leak; empty when the run showed and read only what `user` may see."""
        found: list[str] = []
        for shown in record.citations + record.fallback:
            if not self.view.permits(user, shown.doc_id):
                found.append(f"showed forbidden document {shown.doc_id!r}")
        for evidence in record.evidence:
            if not self.view.permits(user, evidence.doc_id):
                found.append(f"retrieved forbidden document {evidence.doc_id!r}")
        if user not in self._open_users:
            texts = [strip_markers(record.answer), record.short_answer or ""]
            texts += [shown.snippet for shown in record.fallback]
            found.extend(self._quoted(user, texts))
        return list(dict.fromkeys(found))

    def _quoted(self, user: str, texts: list[str]) -> Iterator[str]:
        for text in texts:
            for shingle in shingles(text):
                owners = self._owners.get(hash(shingle), ())
                if owners and not any(self.view.permits(user, doc_id) for doc_id in owners):
                    yield f"quoted {' '.join(shingle)!r}, found only in forbidden {', '.join(sorted(owners))}"
                    break
