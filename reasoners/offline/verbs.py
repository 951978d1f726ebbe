"""What a question asks is done, and who does it.

'approv' of 'Who has to approve it?', 'close' of 'What time does the entrance close?'; and what leads into that doer
in a passage ('approved in writing by the ...').
"""

from __future__ import annotations

import re

from boundloop.domain.text import stem
from boundloop.reasoners.offline.vocabulary import words

_AUXILIARY = re.compile(r"\b(?:can|could|do|does|did|must|should|will|may|would|is|are|was|were)\s+(.+?)(?:[?.!]|$)",
                        re.I)
_CLAUSE_END = words("verb_phrase_end")
_PARTICLES = words("verb_particles")
_WHO_VERB = re.compile(r"^\s*who\s+(?!has\b|does\b|was\b|is\b)([a-z]{3,}s)\b", re.I)
_WHO_MODAL = re.compile(r"\bwho\s+(?:has|have|needs?|gets?|is able|are able|is allowed|is authori[sz]ed)\s+to\s+"
                        r"([a-z]{3,})\b|\bwho\s+(?:can|must|should|will|may|would|could)\s+([a-z]{3,})\b", re.I)
"""'Who has to approve it?', 'the person who can sign off a contract': 'approve', 'sign'."""
_WHO_RELATIVE = re.compile(r"\b(?:person|one|someone|people|role|manager|colleague)\s+who\s+(?!has\b|does\b|was\b|"
                           r"is\b)([a-z]{3,}s)\b", re.I)
"""'the person who books our business trips': 'book'."""


def doer_verb(question: str) -> str:
    """The stem of what the person asked about does; '' when the question names no such doing.

    'approv' of 'the person who has to approve a €40,000 order' and of 'Who approves claims?', 'book' of 'the person
    who books our trips'. A row whose column names that doer ('Approver') names the person.
    """
    who = _WHO_MODAL.search(question) or _WHO_VERB.search(question) or _WHO_RELATIVE.search(question)
    return stem(next(g for g in who.groups() if g).lower()) if who else ""


def doer_lead(verb: str) -> re.Pattern[str] | None:
    """What leads into the doer of `verb` in a passage: 'approved in writing by the ' for 'approv'; None without one.

    Only the verb's own participle, a few words of manner and 'by': 'Approved deviations are recorded by X' names
    who records them, not who approves.
    """
    if not verb:
        return None
    return re.compile(rf"\b{re.escape(verb)}\w*(?:\s+(?!(?:are|is|was|were|be|been|being)\b)\w+){{0,3}}?\s+by\s+"
                      rf"(?:the\s+)?", re.IGNORECASE)


def asked_verb(question: str) -> str:
    """The stem of what the question asks is done; '' when it cannot tell.

    'carry' of 'How many days can I carry over?', 'close' of 'What time does the entrance close?', 'approv' of 'Who
    approves claims?'.
    """
    who = _WHO_VERB.search(question)
    if who:
        return stem(who.group(1).lower())
    match = _AUXILIARY.search(question)
    if not match:
        return ""
    words: list[str] = []
    for word in match.group(1).split():
        if word.lower() in _CLAUSE_END:
            break
        words.append(word)
    while words and words[-1].lower() in _PARTICLES:
        words.pop()
    last = words[-1] if len(words) >= 2 else ""  # the subject comes first ('can I carry', 'does the desk close')
    return stem(last.lower()) if re.fullmatch(r"[a-z]{3,}", last) else ""
