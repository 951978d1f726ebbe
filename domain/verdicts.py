"""A yes or no with the bound that decided it: 'No: the limit for Rotterdam is €165'.

'Can I book a hotel in Rotterdam at €180 a night?' is answered by a limit the passage states; a bare 'no' hides why.
The reader writes the verdict in this one form and the verifier reads it back, so both agree on which part the
evidence must state (the subject and the bound's value) and which words are the form's own.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Bound = Literal["limit", "minimum", "threshold"]
"""An upper bound ('Limit: €165', 'up to 5 days'), a lower one ('at least 3 quotes') or one to pass ('longer than
4 hours')."""

_FORM = re.compile(r"^(yes|no): the (limit|minimum|threshold)(?: for (.+?))? is (.+)$", re.IGNORECASE)


class Decided(NamedTuple):
    """A verdict read from a bound, in its parts."""

    verdict: str
    """'yes' or 'no'."""
    bound: Bound
    value: str
    """The bound as the evidence writes it ('€165', '5 km/h')."""
    subject: str = ""
    """What the bound is for, when the evidence names it beside the value ('Rotterdam')."""

    def __str__(self) -> str:
        said = f" for {self.subject}" if self.subject else ""
        return f"{self.verdict.capitalize()}: the {self.bound}{said} is {self.value}"

    @property
    def stated(self) -> str:
        """The words the evidence must state: the subject and the value."""
        return f"{self.subject} {self.value}".strip()


def decided(short: str) -> Decided | None:
    """The parts of a verdict written with its bound, or None for any other short answer."""
    found = _FORM.match(short.strip())
    if found is None:
        return None
    verdict, bound, subject, value = found.groups()
    kinds: dict[str, Bound] = {"limit": "limit", "minimum": "minimum", "threshold": "threshold"}
    return Decided(verdict.lower(), kinds[bound.lower()], value, subject or "")
