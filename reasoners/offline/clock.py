"""Times of day as comparable values: 'which office opens earlier, Bergen or Rotterdam?'.

Each option's hours are read from its own unit ('Office hours: 07:00–16:00', 'Hours on site | 06:30–16:30'); a range
opens at its first time and closes at its last. A question about closing, finishing or ending compares the last
time, any other (opening, starting) the first.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from boundloop.domain.text import stems
from boundloop.reasoners.offline.reading import Reading, coverage
from boundloop.reasoners.offline.spans import spans

_CLOCK = re.compile(r"\b(?:(?P<h>[01]?\d|2[0-3])[:h.](?P<m>[0-5]\d)|(?P<h12>1[0-2]|0?[1-9]))"
                    r"(?:\s?(?P<ampm>[ap])\.?m\b\.?)?|\b(?P<word>noon|midnight)\b", re.IGNORECASE)
ASKS_TIME = re.compile(r"\b(?:open|opens|opening|close|closes|closing|start|starts|starting|begin|begins|finish|"
                       r"finishes|end|ends|shut|shuts)\b|\bin the (?:morning|evening)\b", re.IGNORECASE)
"""A choice about the time of day something happens ('opens earlier', 'starts earlier in the morning')."""
_LAST = re.compile(r"\b(?:close|closes|closing|finish|finishes|end|ends|shut|shuts)\b", re.IGNORECASE)


def minutes(written: str) -> list[int]:
    """The times a span gives, as minutes after midnight: '07:30–17:00' -> [450, 1020]; '9am - 1pm' -> [540, 780]."""
    found = []
    for match in _CLOCK.finditer(written):
        if match["word"]:
            found.append(720 if match["word"].lower() == "noon" else 0)
            continue
        if match["h12"] and not match["ampm"]:
            continue  # a bare number is no time
        hour = int(match["h"] or match["h12"])
        if match["ampm"]:
            hour = hour % 12 + (12 if match["ampm"].lower() == "p" else 0)
        found.append(hour * 60 + int(match["m"] or 0))
    return found


def clock_value(question: str) -> Callable[[Reading], int | None]:
    """The time a unit gives for what the question asks: the first of its first time span, or the last."""
    last = _LAST.search(question) is not None

    def value(reading: Reading) -> int | None:
        for span in spans("time", reading.unit.plain):
            if times := minutes(span):
                return times[-1] if last else times[0]
        return None
    return value


_WHICH = re.compile(r"^\s*which\s+([a-z]+)\b", re.IGNORECASE)


def compared_noun(question: str) -> set[str]:
    """The stems of what the choice compares: 'office' of 'which office opens earlier, Bergen or Rotterdam?'."""
    found = _WHICH.match(question)
    return stems(found.group(1)) if found else set()


def timed(option_units: list[Reading], weights: dict[str, float], value: Callable[[Reading], int | None],
          noun: set[str] | frozenset[str] = frozenset()) -> tuple[int, Reading] | None:
    """The time the unit about an option that best says the rest of the question gives, with that unit.

    'Office hours: 07:00–16:00' over 'Canteen ... open 06:30–14:00' for 'which office opens earlier': only units
    naming what is compared (`noun`), in them or in their title or heading; one naming it itself first, then the
    unit covering more of the question's other words; then a range (hours) over a single time; then the earlier one.
    """
    found = [(v, r) for r in option_units if (v := value(r)) is not None and
             (not noun or noun <= r.unit.stems | r.unit.context_stems)]
    if not found:  # no unit about the option says when what is compared opens ('the ops room' is no canteen)
        return None
    return max(found, key=lambda pair: (noun <= pair[1].unit.stems,
                                        coverage([pair[1].unit], weights) if weights else pair[1].coverage,
                                        len(minutes(" ".join(spans("time", pair[1].unit.plain)))) > 1,
                                        -pair[1].unit.position))
