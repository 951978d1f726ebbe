"""Closed classes of common nouns that answer a question asking for their class ('What sport ...?': 'football').

Names are capitalised and found by their form; a sport or an instrument is a lower-case word that only a list knows.
"""

from __future__ import annotations

import re

_CLASSES = {
    "sport": """football soccer rugby cricket tennis golf basketball baseball softball volleyball handball hockey
        lacrosse badminton squash boxing wrestling athletics swimming cycling rowing sailing skiing snowboarding
        skating gymnastics fencing archery judo karate taekwondo polo netball hurling curling bowling snooker darts
        motorsport triathlon marathon climbing surfing diving""",
    "instrument": """piano guitar violin viola cello bass drums drum saxophone trumpet trombone clarinet flute oboe
        bassoon harp banjo mandolin ukulele accordion harmonica organ keyboards keyboard sitar tuba horn synthesizer
        percussion vocals""",
}
_WORDS = {head: frozenset(words.split()) for head, words in _CLASSES.items()}
_PATTERNS = {head: re.compile(rf"\b(?:{'|'.join(sorted(words, key=len, reverse=True))})\b", re.I)
             for head, words in _WORDS.items()}


def closed_class(head: str, text: str, question: str) -> list[tuple[int, int]]:
    """Where `text` names a member of the class `head` asks for ('sport': 'soccer' of 'a soccer player').

    A member the question names is no answer ('Which sport besides tennis ...?').
    """
    pattern = _PATTERNS.get(head.lower().removesuffix("s"))
    stated = {m.group().lower() for m in pattern.finditer(question)} if pattern else set()
    return [m.span() for m in pattern.finditer(text) if m.group().lower() not in stated] if pattern else []


def in_class(head: str, value: str) -> bool:
    """Whether `value` is a member of the class `head` asks for ('soccer' for 'sport'); False for any other head."""
    pattern = _PATTERNS.get(head.lower().removesuffix("s"))
    return bool(pattern and pattern.fullmatch(value.strip()))
