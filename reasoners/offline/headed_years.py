"""Sections by year: a table or list under a heading naming another year than the one the question gives.

'What was Hollinbrook's average output in 2024?' over 'Table 1 - Treatment works, 2023' and 'Table 2 - Treatment
works, 2024' in one summary: both tables name the site and the measure, and the document's title says 2024, but only
the second section is about the year asked. A row under the other heading is about another case, as a row about other
amounts is (`ranges.py`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from boundloop.reasoners.offline.units import Unit

_YEAR = re.compile(r"(?<![\d/.-])(?:19|20)\d{2}(?![\d/.-])")
"""A calendar year as written on its own ('2024'), not inside a date, a range of codes or a financial year's '25/26'."""


def by_heading_year(units: list[Unit], question: str) -> list[Unit]:
    """The units, those under a heading naming only other years than the question's marked as out of range."""
    asked = set(_YEAR.findall(question))
    if not asked:
        return units
    return [replace(u, out_of_range=True) if (headed := set(_YEAR.findall(u.heading))) and not headed & asked else u
            for u in units]
