"""Acronyms: 'PTO' in a question reads as the 'Paid Time Off' the evidence spells out.

An acronym (two to five capitals) that no evidence chunk states is expanded when a chunk (its title or text) has
capitalised words whose initials spell it, so the question's words meet the document's ('How many days of PTO can I
carry over?' and a policy titled 'Paid Time Off').
"""

from __future__ import annotations

import re

from domain.models import Evidence

_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")
_SKIP = frozenset({"of", "and", "for", "the", "&", "to", "in"})


def expanded(question: str, evidence: list[Evidence]) -> str:
    """The question with each acronym the evidence spells out (and never uses) replaced by its spelling."""
    texts = [f"{e.title}\n{e.text}" for e in evidence]
    for acronym in dict.fromkeys(_ACRONYM.findall(question)):
        if any(re.search(rf"\b{acronym}\b", text) for text in texts):
            continue  # the documents use the acronym themselves
        spelled = next((found for text in texts if (found := _spelled(acronym, text))), None)
        if spelled:
            question = re.sub(rf"\b{acronym}\b", spelled, question)
    return question


def _spelled(acronym: str, text: str) -> str | None:
    """Capitalised words in `text` whose initials spell `acronym` ('Paid Time Off' for PTO), connectors skipped."""
    words = re.findall(r"[A-Za-z][\w'’-]*|&", text)
    for start, word in enumerate(words):
        if word[0] != acronym[0]:
            continue
        taken: list[str] = []
        letters = ""
        for candidate in words[start:start + 2 * len(acronym)]:
            if candidate.lower() in _SKIP and taken:
                taken.append(candidate)
                continue
            if not candidate[0].isupper() or len(letters) == len(acronym):
                break
            letters += candidate[0]
            taken.append(candidate)
        if letters == acronym:
            while taken[-1].lower() in _SKIP:
                taken.pop()
            return " ".join(taken)
    return None
