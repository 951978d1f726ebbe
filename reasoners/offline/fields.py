"""One field of a document, asked by its meaning: which words name it, and where a unit names it.

'The staff wifi names at each of our sites' asks one field of every site guide; the guides label it 'Wifi (staff)',
'Staff Wi-Fi', 'Wireless network' or 'SSID', or head a section 'WIFI' over 'Staff network: X'. The field's key word
is its rarest word that is neither generic ('name', 'contact') nor the kind of value asked ('extension' for a phone
number): it must be named, by itself or a word of its group (`field_words.json`); its other words qualify it
('staff' over 'guest').
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from boundloop.domain.text import stems
from boundloop.reasoners.offline.vocabulary import stemmed

WORDS_FILE = Path(__file__).with_name("field_words.json")

GENERIC = stemmed("field_generic_words")
"""Words of a field that name no field of their own: 'the first aid contact' is the first aid field."""
KIND_WORDS: dict[str, frozenset[str]] = {
    "phone": stemmed("asks_phone"),
    "postcode": stemmed("asks_postcode"),
    "email": stemmed("asks_email"),
    "url": stemmed("asks_url"),
}
"""The words asking for a kind of value: the value's form says them ('ext. 4112' is the extension)."""


@cache
def _groups() -> tuple[tuple[tuple[frozenset[str], ...], ...], tuple[frozenset[str], ...]]:
    data = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    fields = tuple(tuple(frozenset(stems(phrase)) for phrase in group) for group in data["fields"])
    families = tuple(frozenset(stems(" ".join(group))) for group in data["families"])
    return fields, families


def family_words(family: set[str]) -> set[str]:
    """The stems of every word for a family's members ('terminals' -> site, office, station...), with its own."""
    return set(family).union(*(group for group in _groups()[1] if group & family))


def said_for(terms: list[str]) -> set[str]:
    """The stems of `terms` and of every phrase of a group holding one of them: what a passage giving it may say."""
    asked = {k for t in terms for k in stems(t)}
    return asked.union(*(phrase for group in _groups()[0] if any(asked & phrase for phrase in group)
                         for phrase in group))


@dataclass(frozen=True)
class Field:
    """A field asked: the phrases naming its key word, its other words (weighed), the kind of value asked."""

    key: tuple[frozenset[str], ...]
    qualifiers: dict[str, float]
    kind: str
    by_form: bool = False
    """Whether only the kind of value is asked ('the postcodes'): a value of its form is read wherever it stands."""

    def named_by(self, said: frozenset[str] | set[str]) -> bool:
        """Whether stems `said` (a label, a heading, a sentence) name the field's key."""
        return any(phrase and phrase <= said for phrase in self.key)

    def partly_named_by(self, said: frozenset[str] | set[str]) -> bool:
        """Whether stems `said` (one word) hold a word of a phrase naming the key ('network' of 'staff network')."""
        return any(phrase & said for phrase in self.key)

    def qualified(self, said: frozenset[str] | set[str]) -> float:
        """The weight of the field's other words `said` states."""
        return sum(w for k, w in self.qualifiers.items() if k in said)


def field_asked(terms: list[str], weights: dict[str, float], kind: str) -> Field | None:
    """The field that the words `terms` ask ('staff wifi' -> key wifi, qualifier staff), or None.

    Without a word of its own ('the postcodes of all our offices') the kind's word is the key: the value's form is
    what is read.
    """
    words = [k for k in dict.fromkeys(k for t in terms for k in stems(t)) if k not in GENERIC]
    own = [k for k in words if k not in KIND_WORDS.get(kind, frozenset())]
    if not (pool := own or words):
        return None
    key = max(pool, key=lambda k: weights.get(k, 0.0))
    phrases = {frozenset({key})}
    fields = _groups()[0]
    leading = [group for group in fields if key in group[0]]
    for group in leading or [group for group in fields if any(key in phrase for phrase in group)]:
        phrases.update(group)
    return Field(tuple(phrases), {k: weights.get(k, 1.0) for k in words if k != key}, kind, by_form=not own)
