"""Questions asking how soon something must be done: the time allowed, whatever word of speed asks it."""

from __future__ import annotations

import re

DUE_SPEED = re.compile(r"\bhow (?:fast|quickly|soon)\s+(?:(?:do|does|did|will)\s+\w+\s+(?:have|need|got)\s+to|"
                       r"(?:must|should)\s+\w+)\b", re.I)
"""'How fast do we have to acknowledge a P1 alarm?', 'how quickly must a spill be reported?': a duration ('within 5
minutes'), not a speed; 'how fast can the pump run?' still asks a speed."""
