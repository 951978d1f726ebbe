"""What the question already states, which cannot be its answer.

A name it gives ('the Livesey Hal War Memorial', however typed), a value it holds ('above EUR 5,000'), a code or an
address as written.
"""

from __future__ import annotations

from domain.text import stems, values

LITERAL_KINDS = {"code", "url", "email", "phone", "room"}
"""Kinds stated only as written: '/room' is not stated by 'book a room'."""


def stated_by_question(span: str, kind: str, question: str, question_stems: set[str],
                       question_values: set[str]) -> bool:
    """Whether the question already states this span (then it cannot be the answer).

    Codes, addresses and numbers count as stated only when the question holds them as written ('/room' is not
    stated by 'book a room').
    """
    if kind in LITERAL_KINDS:
        return span.lower() in question.lower()
    own = stems(span)
    if own and own <= question_stems:
        return True
    rest = own - question_stems  # a name given with a slip of the keys: 'Livesey Hal War Memorial'
    if len(own) >= 3 and len(rest) == 1 and any(_misspelt(word, asked) for word in rest for asked in question_stems):
        return True
    found = set(values(span))
    return bool(found) and found <= question_values


def _misspelt(word: str, typed: str) -> bool:
    """Whether `typed` is `word` with its last letter left off or one more added ('hal' for 'hall')."""
    short, long = sorted((word, typed), key=len)
    return len(short) >= 3 and len(long) - len(short) == 1 and long.startswith(short)
