"""Closed classes of common nouns that answer a question asking for their class ('What sport ...?': 'football').

Names are capitalised and found by their form; a sport, an instrument or a player's position is a lower-case word
that only a list knows. A position that is also a common word ('safety', 'guard') is left out.
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
    "position": """pitcher catcher first_baseman second_baseman third_baseman shortstop outfielder left_fielder
        center_fielder centre_fielder right_fielder designated_hitter quarterback running_back wide_receiver
        tight_end linebacker cornerback free_safety strong_safety defensive_end defensive_tackle offensive_lineman
        offensive_tackle placekicker kicker punter point_guard shooting_guard small_forward power_forward goalkeeper
        goaltender defender defenceman defenseman midfielder striker winger full-back fullback centre-back
        center-back centre_forward center_forward left_back right_back left_wing right_wing""",
}
"""Members of each class; '_' joins the words of one member ('first_baseman')."""
_WORDS = {head: frozenset(w.replace("_", " ") for w in words.split()) for head, words in _CLASSES.items()}
_PATTERNS = {head: re.compile(rf"\b(?:{'|'.join(re.escape(w) for w in sorted(words, key=len, reverse=True))})\b",
                              re.I)
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
