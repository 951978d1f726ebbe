"""Procedures: 'How do I get a new laptop?' answered by the steps listed under the heading that names the task.

A how-to question is rarely answered by one sentence: the document lists the steps under a heading ('## Getting a
new laptop') or a lead-in ('To request leave:'). When the heading or lead-in says most of what is asked, every step
under it (in order, at most `MAX_STEPS`) is the answer, each step its own cited claim.
"""

from __future__ import annotations

import re

from boundloop.domain.text import stems
from boundloop.reasoners.offline.reading import Reading

MAX_STEPS = 8
NAMED = 0.5
"""The share of the question's weight the heading or lead-in must state to name the task: 'How to book a trip'
names 'the steps to book a business trip' (0.52 of its weight). 0.6 before; 0.5 changed no probe, demo or dev
answer besides that one."""
_STEP = re.compile(r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)")
_ASKING_FOR_STEPS = frozenset(stems("steps step stages process procedure instructions"))
"""Words asking for a procedure, not naming its task: 'the steps to book a trip' is named by 'How to book a trip'."""


def procedure(readings: list[Reading], weights: dict[str, float]) -> list[Reading]:
    """The steps listed under the heading or lead-in that best names what is asked; [] when none names it."""
    groups: dict[tuple[str, str], list[Reading]] = {}
    for r in readings:
        title = r.unit.lead or r.unit.heading
        if title and _STEP.match(r.unit.text):
            groups.setdefault((r.unit.evidence.chunk_id, title), []).append(r)
    weights = {term: w for term, w in weights.items() if term not in _ASKING_FOR_STEPS}
    total = sum(weights.values()) or 1.0
    best: tuple[float, list[Reading]] = (0.0, [])
    for (_, title), steps in groups.items():
        named = sum(w for term, w in weights.items() if term in stems(title)) / total
        if named >= NAMED and len(steps) >= 2 and named > best[0]:
            best = (named, sorted(steps, key=lambda r: r.unit.position)[:MAX_STEPS])
    return best[1]
