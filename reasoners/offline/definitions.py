"""What an acronym stands for, as the documents define it: 'What does LOTO mean?', 'What's the OR at Tilburg?'.

A glossary line ('LOTO: Lock-Out Tag-Out.'), a row ('Term: OR; Meaning: Ondernemingsraad (works council)') or a
spelling beside it in running text ('the Chief Sustainability Officer (CSO)', 'PTW (Permit to Work)') defines it.
"""

from __future__ import annotations

import re

from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.vocabulary import words

_ASKED = re.compile(r"^\s*(?i:what)(?:['’]?s|\s+(?i:is|are|does|do))\s+(?:(?i:the|an?)\s+)?([A-Z][A-Z0-9&]{1,6})s?\b"
                    r"(.*)$")
_MEANING = re.compile(r"^\s*(?:stand|stands)\s+for\b|^\s*mean\b|^\s*(?:short|an abbreviation)\s+for\b", re.I)
_TERM_HEADERS = words("term_headers")


def asked_acronym(question: str) -> tuple[str, bool] | None:
    """The acronym a question asks about, and whether it surely asks what it means ('stand for', 'mean')."""
    match = _ASKED.match(question)
    if not match:
        return None
    acronym, rest = match.group(1), match.group(2)
    if _MEANING.match(rest):
        return acronym, True
    return (acronym, False) if len(re.findall(r"\w+", rest)) <= 3 else None


def _spelled(acronym: str, text: str) -> str | None:
    a = re.escape(acronym)
    for pattern in (rf"^\W*{a}\W*\s*(?::|=|–|—|\s-\s)\s*([^.;]+)",  # 'LOTO: Lock-Out Tag-Out.'
                    rf"\b{a}\s+(?:stands for|means|is short for)\s+([^.;]+)",
                    rf"\b{a}\s*\(([^)]{{3,80}})\)",  # 'PTW (Permit to Work)'
                    rf"((?:[A-Z][\w'’-]*\s+(?:(?:of|and|for|the|to|in|on|at|&)\s+)?){{1,6}}[A-Z][\w'’-]*)\s*\({a}\)"):
        match = re.search(pattern, text)
        if match and match.group(1).strip() and match.group(1).strip() != acronym:
            return re.sub(r"^(?:A|An|The|Our|Your|This)\s+", "", " ".join(match.group(1).split())).strip(" ,")
    return _initials_after(acronym, text)


def _initials_after(acronym: str, text: str) -> str | None:
    """The words right after a leading acronym whose initials spell it, a connector's initial counted or not.

    A glossary laid out in columns: 'MAST    Mandatory and Statutory Training - the core training ...'.
    """
    match = re.match(rf"^\W*{re.escape(acronym)}\W*\s+", text)
    if not match:
        return None
    taken: list[str] = []
    for word in text[match.end():].split()[:2 * len(acronym)]:
        connector = word.lower() in {"of", "and", "for", "the", "&", "to", "in", "on"}
        if not (word[:1].isupper() or taken and connector):
            break
        taken.append(word.strip(",;:"))
        capitals = "".join(w[0] for w in taken if w[:1].isupper())
        if word[:1].isupper() and acronym.upper() in (capitals, "".join(w[0].upper() for w in taken)):
            return " ".join(taken)
    return None


def definition(acronym: str, readings: list[Reading]) -> tuple[str, Reading] | None:
    """The spelling the best-ranked defining unit gives, with that unit."""
    for reading in sorted(readings, key=lambda r: -r.score):
        cells = reading.unit.cells
        for i, cell in enumerate(cells):  # 'Term: OR; Meaning: Ondernemingsraad (works council)'
            if cell.value == acronym and cell.header.lower() in _TERM_HEADERS and i + 1 < len(cells):
                return cells[i + 1].value, reading
        spelled = _spelled(acronym, reading.unit.plain)
        if spelled:
            return spelled, reading
    return None
