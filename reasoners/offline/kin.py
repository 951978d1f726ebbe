"""A relative's date or place asked of a named person: 'When did Frances Vane's father die?'.

So too of the person behind a named work ('the director of film The Serpent's Egg'). The answer is in the relative's
own document, never in the named person's (or work's): her own document gives her dates ('(17 January 1800 - 20
January 1865)'), which are no answer. A chain ending on a unit of the named person's own document is left out; when
every chain does, the evidence lacks the relative's document and nothing answers. The maker of a work counts only
when the question names the kind of work ('of film X'): 'the author of the travel policy' may well be named in the
policy itself.
"""

from __future__ import annotations

import re

from boundloop.reasoners.offline.answer_types import Expected
from boundloop.reasoners.offline.chains import Chain
from boundloop.reasoners.offline.compare import own_document

_KINS = r"(?:father|mother|husband|wife|spouse|son|daughter|brother|sister|child|parent|grandfather|grandmother)"
_MAKERS = r"(?:director|producer|composer|author|creator|founder|writer|performer)"
_WORKS = r"(?:film|movie|song|album|book|novel|band)"
_KIN = re.compile(rf"\b([A-Z][^?]*?)['’]s\s+{_KINS}\b|\b(?:{_KINS}\s+of\s+(?:the\s+)?|{_MAKERS}\s+of\s+(?:the\s+)?"
                  rf"{_WORKS}\s+)([A-Z][^?]*?)(?:\s+(?:born|die|died|buried)\b|\s*\?|$)")
_ASKED_BEFORE = re.compile(r"^.*?\b(?:[a-z]+\s+)+(?=[A-Z])")
"""The question's words before the name ('When did ' of 'When did Frances Vane')."""


def relative_of(question: str) -> str | None:
    """The named person whose relative the question asks about, else None."""
    match = _KIN.search(question)
    if not match:
        return None
    return _ASKED_BEFORE.sub("", match.group(1) or match.group(2) or "", count=1).strip(" ,") or None


def past_the_person(question: str, expected: Expected, found: list[Chain]) -> list[Chain]:
    """The chains that may answer a date or place asked of a named person's relative: not from their own document."""
    if expected.kind not in ("date", "place") or (person := relative_of(question)) is None:
        return found
    return [c for c in found if not own_document(person, c.last)]
