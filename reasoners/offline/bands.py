"""A band asked of a row whose bounds stand in columns: 'the pay band for a Ramp Agent II' is its minimum to maximum.

'Grade: G2; Role: Ramp Agent II; Minimum: EUR 1,180; Midpoint: EUR 1,255; Maximum: EUR 1,330' answers 'what's the
pay band for a Ramp Agent II?' with 'EUR 1,180 – EUR 1,330', not the first amount in the row.
"""

from __future__ import annotations

import re

from boundloop.reasoners.offline.answer_types import Expected
from boundloop.reasoners.offline.units import Unit
from boundloop.reasoners.offline.vocabulary import words

BAND_HEADS = words("band_heads")
"""Nouns asking for a span of values rather than one."""
_LOW = words("band_low")
_HIGH = words("band_high")


def _bound(unit: Unit, words: frozenset[str]) -> str | None:
    return next((c.value for c in unit.cells if c.header and set(re.findall(r"[a-z]+", c.header.lower())) & words),
                None)


def band_of(unit: Unit, expected: Expected) -> str | None:
    """The row's lower and upper bound as one answer, when a band is asked and its columns give both; else None."""
    if expected.head not in BAND_HEADS or expected.kind not in ("amount", "number", "name", "other"):
        return None
    low, high = _bound(unit, _LOW), _bound(unit, _HIGH)
    return f"{low} – {high}" if low and high and low != high else None
