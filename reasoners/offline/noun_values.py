"""Values the asked-for noun labels: the number written with its unit right beside the noun the question names.

'What's the bollard pull of the Skarholt Viking?' over 'Skarholt Viking (bollard pull 65 t)' asks for '65 t', not
for the name next to it; 'the exclusion zone' over 'Exclusion zone: 5 metres either side ...' for '5 metres';
'the minimum rest' over 'Minimum 11 hours rest between two shifts' for '11 hours'; 'which radio channel' over 'is on
channel 4' for 'channel 4'. A noun no value kind is known for still labels its value by standing beside it, in a
sentence as in a field.
"""

from __future__ import annotations

import re

from boundloop.domain.text import stem

_UNITS = (r"km/h|kph|mph|m/s|knots?|kn|%|per ?cent|°\s?[CF]|º\s?C|degrees?|km|kilometres?|kilometers?|miles?|"
          r"nautical miles?|nm|metres?|meters?|m|cm|mm|ft|feet|inch(?:es)?|yards?|kg|kilograms?|g|grams?|t|tonnes?|"
          r"tons?|lbs?|l|litres?|liters?|ml|m3|m³|bar|psi|kpa|kw|mw|kv|v|seconds?|secs?|minutes?|mins?|hours?|hrs?|h|"
          r"days?|nights?|weeks?|months?|years?")
_MEASURE = (rf"\d[\d,]*(?:\.\d+)?(?:\s?(?:–|-|to)\s?\d[\d,]*(?:\.\d+)?)?(?:\s(?:working|business|calendar|clear|"
            rf"consecutive))?\s?(?:{_UNITS})(?![\w/²³])")
_NUMBER = r"\d[\d,]*(?:\.\d+)?(?![\w.,]\d)"
_LINK = r"(?:\s?[:=]\s?|\s(?:of|is|at|on)\s|\s)"
"""What may stand between a label and its value: 'zone: 5 metres', 'pull 65 t', 'a rest of 11 hours'."""
_MEASURE_KINDS = frozenset({"name", "other"})
"""Kinds a question asks by a noun no value kind is known for: its labelled measure is the answer."""
_NUMBERED_KINDS = frozenset({"code"})
"""Kinds whose noun numbers what it names ('channel 4', 'bay 12'): the noun and its bare number are the answer."""


def _head(head: str) -> str:
    """The head noun as a pattern that also takes its plural ('zone' -> 'zones?')."""
    root = stem(head)
    return rf"{re.escape(root)}\w{{0,3}}"


def labelled(text: str, head: str, kind: str) -> list[tuple[int, str]]:
    """Where a value the head noun labels starts, and the value: its measure, or for a code the noun and number.

    Only for kinds that no typed value answers; a bare number beside a name-asking noun is a count, not its value.
    """
    if not head or len(head) < 3 or kind not in _MEASURE_KINDS | _NUMBERED_KINDS:
        return []
    noun = _head(head)
    found: list[tuple[int, str]] = []
    if kind in _MEASURE_KINDS:
        after = re.compile(rf"\b{noun}{_LINK}({_MEASURE})", re.I)
        found += [(m.start(1), m.group(1)) for m in after.finditer(text)]
        before = re.compile(rf"(?<![\w.,])({_MEASURE})\s(?:of\s)?{noun}\b", re.I)
        found += [(m.start(1), m.group(1)) for m in before.finditer(text)]
    else:
        numbered = re.compile(rf"\b{noun}\s(?:no\.?\s|number\s)?{_NUMBER}", re.I)
        found += [(m.start(), m.group(0)) for m in numbered.finditer(text)]
    return sorted(found)
