"""Which documents held are older versions of another one held.

By the version, year or draft mark that their titles or file names carry: 'Travel Policy 2024' beside 'Travel
Policy 2026', 'travel-policy-v2-2023' beside 'travel-policy-v3', 'capex-policy-DRAFT' beside 'capex-policy'.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from boundloop.domain.models import Evidence
from boundloop.domain.names import normalise_name

_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_NUMBERED = re.compile(r"\b(?:v|ver|version|rev|revision)\.?\s?(\d+(?:\.\d+)*)\b", re.IGNORECASE)
_DRAFT = re.compile(r"\bdraft\b", re.IGNORECASE)
_MARKS = re.compile(r"\b(?:19|20)\d\d\b|\b(?:v|ver|version|rev|revision)\.?\s?\d+(?:\.\d+)*\b|\bdraft\b|"
                    r"\((?:superseded|current|old|new|archived)\)", re.IGNORECASE)


class Version(NamedTuple):
    """A document's name without its marks, and the marks: version numbers, years, whether it is a draft."""

    name: str
    numbers: tuple[int, ...]
    years: tuple[int, ...]
    draft: bool

    def older_than(self, other: Version) -> bool:
        if self.name != other.name or not self.name:
            return False
        if self.numbers and other.numbers and self.numbers != other.numbers:
            return self.numbers < other.numbers
        if self.years and other.years and self.years != other.years:
            return max(self.years) < max(other.years)
        return self.draft and not other.draft  # a draft beside the approved text of the same name


def _read(label: str) -> Version:
    """A label's name and marks (none, for a plain name)."""
    words = " ".join(re.split(r"[-_]+", label))
    numbers = tuple(int(part) for found in _NUMBERED.findall(words) for part in found.split(".") if part)
    years = tuple(int(y) for y in _YEAR.findall(words))
    return Version(normalise_name(_MARKS.sub(" ", words)), numbers, years, bool(_DRAFT.search(words)))


def version(label: str) -> Version | None:
    """The marks one label (a title, a file name) carries, or None when it carries none."""
    read = _read(label)
    return read if read.numbers or read.years or read.draft else None


def _labels(evidence: Evidence) -> list[Version]:
    """The versions a chunk's document states: by its title, and by its id (a file name) when that says more."""
    found = [v for v in (version(evidence.title), version(evidence.doc_id)) if v]
    plain = _read(evidence.title)
    if not found and plain.name:  # no marks at all: the plain name, so that a marked document can be older or newer
        found.append(plain)
    return found


def older_versions(evidence: list[Evidence]) -> set[str]:
    """Documents held that another document held supersedes by version, year or draft mark."""
    labels = {e.doc_id: _labels(e) for e in evidence}
    others = [(doc, v) for doc, versions in labels.items() for v in versions]
    return {doc for doc, versions in labels.items()
            if any(mine.older_than(theirs) for mine in versions for other, theirs in others if other != doc)}
