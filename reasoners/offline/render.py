"""Claims as clean sentences: no markdown emphasis, bullets or pipes.

Table rows read with their row and column names ('Annual leave, Lisbon: 25 working days'); a list item keeps the
lead-in it completes.
"""

from __future__ import annotations

from boundloop.domain.text import stems
from boundloop.reasoners.offline.units import PAIR, Unit, plain


def render(unit: Unit, question: str) -> str:
    """The claim a unit makes, as a person reads it; every word still stands in the unit's chunk."""
    text = plain(unit.text)
    if unit.cells:
        text = _row(unit, stems(question)) or text
    if pair := PAIR.match(text):  # a line of a plain-text table, read with the label above it
        text = f"{pair.group(1)}: {text[pair.end():]}"
        if unit.lead and not unit.lead.endswith(":") and unit.lead not in text:
            return f"{unit.lead.rstrip(' .,')}, {text}".rstrip(" ;:")
    if unit.lead and unit.lead.endswith(":") and unit.lead not in text:
        text = f"{unit.lead} {text[:1].lower() + text[1:] if _lowerable(text) else text}"
    return text.rstrip(" ;:")


def _lowerable(text: str) -> bool:
    first = text.split()[0] if text.split() else ""
    return first[:1].isupper() and first[1:].islower() and first.lower() in {"the", "a", "an", "all", "any", "each"}


def _row(unit: Unit, question_stems: set[str]) -> str:
    """A labelled row focused on the columns the question names, else every field as 'Header: value'."""
    label = next((c.value for c in unit.cells if not c.header), "")
    named = [c for c in unit.cells if c.header and stems(c.header) & question_stems]
    if label and named and len(named) < len([c for c in unit.cells if c.header]):
        return "; ".join(f"{label}, {c.header}: {c.value}" for c in named)
    return "; ".join(f"{c.header}: {c.value}" if c.header else c.value for c in unit.cells)
