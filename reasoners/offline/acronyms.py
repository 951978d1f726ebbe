"""Acronyms: 'PTO' in a question reads as the 'Paid Time Off' the evidence spells out.

An acronym (two to five capitals) is expanded when a chunk (its title or text) has capitalised words whose initials
spell it, so the question's words meet the document's ('How many days of PTO can I
carry over?' and a policy titled 'Paid Time Off').
"""

from __future__ import annotations

import re

from boundloop.domain.models import Evidence
from boundloop.domain.words import STOPWORDS
from boundloop.reasoners.offline.definitions import asked_acronym
from boundloop.reasoners.offline.vocabulary import words

_ACRONYM = re.compile(r"(?<![\w-])[A-Z]{2,5}\b(?!-\w)")  # not the letters of a code (HR-2025-014)
_SKIP = words("acronym_skipped")


def expanded(question: str, evidence: list[Evidence]) -> str:
    """The question with each acronym the evidence spells out replaced by its spelling.

    When some evidence uses the acronym too, it is kept and the spelling goes beside it ('fuel card limit in the UK'
    meets both a 'United Kingdom' row and 'Leeds, UK').
    """
    texts = [f"{e.title}\n{e.text}" for e in evidence]
    defined = asked_acronym(question)
    for acronym in dict.fromkeys(_ACRONYM.findall(question)):
        if defined and defined[0] == acronym:
            continue  # 'What does CSO stand for?' asks for the spelling: the glossary answers it
        used = any(re.search(rf"\b{acronym}\b", text) for text in texts)
        spelled = next((found for text in texts if (found := _spelled(acronym, text))
                        # beside a used acronym, a sentence's opening words are no spelling ('In Tilburg' for IT)
                        and not (used and found.split()[0].lower() in STOPWORDS)), None)
        if spelled:
            question = re.sub(rf"\b{acronym}\b", f"{acronym} ({spelled.lower()})" if used else spelled, question)
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


_IN_FULL = re.compile(r"\bfull (?:name|title|form)\b|\bspelled out\b", re.I)


def in_full(answer: str | None, texts: list[str], question: str) -> tuple[str, int] | None:
    """An acronym asked for in full, spelled out as one of `texts` spells it before it in brackets, and which text.

    'What is the full name of the disease ...?': 'Severe acute respiratory syndrome (SARS) is ...' answers 'Severe
    acute respiratory syndrome', not 'SARS'.
    """
    if not answer or not re.fullmatch(r"[A-Z]{2,6}", answer) or not _IN_FULL.search(question):
        return None
    for index, text in enumerate(texts):
        for match in re.finditer(rf"\(\s*{answer}\s*\)", text):
            words = list(re.finditer(r"[A-Za-z][\w'’-]*|&", text[:match.start()]))[-2 * len(answer):]
            for start, first in enumerate(words):
                kept = [w.group() for w in words[start:] if w.group().lower() not in _SKIP]
                if first.group().lower() not in _SKIP and "".join(w[0] for w in kept).upper() == answer:
                    return text[first.start():words[-1].end()], index
    return None
