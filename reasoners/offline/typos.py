"""Words typed with a letter left out: 'where's the asembly point' reads as the 'assembly point' the documents write.

Only an omission is read as a typo, never a changed letter: 'paternity leave' is not the 'maternity leave' a
document states, and a question about it must stay unanswered. The word must be missing from the evidence, the
letter must not be its first or last ('tablet' is no typo of 'tablets'), and only one word may fit a word of the
evidence (compared by stem: 'acknowlege' fits 'acknowledged').
"""

from __future__ import annotations

import re
import string

from boundloop.domain.models import Evidence
from boundloop.domain.text import stem
from boundloop.domain.words import STOPWORDS

_WORD = re.compile(r"[^\W\d_]+")
MIN_LENGTH = 6
"""Shorter words have too many neighbours one letter away ('form' and 'from')."""
MAX_LENGTH = 24
"""Longer 'words' are no mistyped words ('eeee...' of 4,000 letters): trying each would cost 26 candidates a letter."""


MAX_UNKNOWN = 10
"""At most this many distinct words the evidence lacks are tried as typos: each costs 26 candidates per letter, and a
question may be 4,000 characters long; one with more unknown words than this is not a mistyped question."""


def respelled_by(question: str, evidence: list[Evidence]) -> str:
    """The question with each word missing a letter written as the one evidence word it then spells."""
    vocabulary: set[str] | None = None
    tried: dict[str, str] = {}

    def fix(match: re.Match[str]) -> str:
        nonlocal vocabulary
        word = match.group(0)
        lower = word.lower()
        if not MIN_LENGTH <= len(lower) <= MAX_LENGTH or lower in STOPWORDS:
            return word
        if vocabulary is None:  # read once, and only when the question has a word long enough
            vocabulary = {stem(w.lower()) for e in evidence for w in _WORD.findall(f"{e.title}\n{e.text}")}
        if stem(lower) in vocabulary:
            return word
        if lower not in tried:
            if len(tried) >= MAX_UNKNOWN:
                return word
            # by stem: 'acknowlege' is the 'acknowledged' a passage writes
            fits = {fixed for i in range(1, len(lower)) for letter in string.ascii_lowercase
                    if stem(fixed := lower[:i] + letter + lower[i:]) in vocabulary}
            tried[lower] = fits.pop() if len(fits) == 1 else ""
        right = tried[lower]
        if not right:
            return word
        return right[0].upper() + right[1:] if word[0].isupper() else right

    return _WORD.sub(fix, question)
