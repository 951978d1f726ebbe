"""Word lists as data: a layer's vocabularies live in a JSON file beside its code, read once at import.

Each file holds named lists, each with a one-line 'about' and its words (`domain/vocabulary.json`,
`reasoners/offline/vocabulary.json`). A module asks for a list by name: `words("stopwords")` for membership tests,
`phrases("months")` where the order matters.
"""

from __future__ import annotations

import json
from pathlib import Path

FILE = Path(__file__).with_name("vocabulary.json")


class Vocabulary:
    """The named word lists of one data file, read when it is made."""

    def __init__(self, path: Path) -> None:
        self.path = path
        data = json.loads(path.read_text(encoding="utf-8"))
        self._lists: dict[str, tuple[str, ...]] = {
            name: tuple(entry["words"]) for name, entry in data["lists"].items()}
        self._sets = {name: frozenset(items) for name, items in self._lists.items()}

    def names(self) -> tuple[str, ...]:
        """The names of the lists, in file order."""
        return tuple(self._lists)

    def phrases(self, name: str) -> tuple[str, ...]:
        """The list `name` in file order ('january' ... 'december'); KeyError naming the file if there is none."""
        try:
            return self._lists[name]
        except KeyError:
            raise KeyError(f"no word list {name!r} in {self.path.name}") from None

    def words(self, name: str) -> frozenset[str]:
        """The list `name` as a set, for membership tests; KeyError naming the file if there is none."""
        try:
            return self._sets[name]
        except KeyError:
            raise KeyError(f"no word list {name!r} in {self.path.name}") from None


VOCABULARY = Vocabulary(FILE)
words = VOCABULARY.words
phrases = VOCABULARY.phrases
