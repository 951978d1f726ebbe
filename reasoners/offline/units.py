"""Reading units: the sentences, list items and table rows of the evidence, each with the context it reads in.

A unit knows its section heading and lead-in ('A daily meal allowance replaces receipts:'), whether it is itself a
heading (never a claim), its table cells ('Room: 3.12'), and whether its document says it is superseded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

from boundloop.domain.models import Evidence
from boundloop.domain.names import normalise_name
from boundloop.domain.sentences import bounded_pieces, chunk_sentences
from boundloop.domain.text import stems
from boundloop.policies.instructions import data_mask, data_sentences, visible_text

_SUPERSEDED = re.compile(
    r"\b(superseded|no longer (in effect|valid|applies|in use|current)|replaced by|obsolete|archived|outdated|"
    r"deprecated|(?-i:DO NOT USE)|do not use (?:this|these) (?:\w+ )?(?:document|version|page|policy|procedure|"
    r"form|guide|runbook|sheet)s?|historical (version|record)|previous version)\b",
    re.IGNORECASE,
)
"""A document that says it is out of date. 'Do not use' counts as a banner or said of the document itself: 'We do not
use Type II fluid' in a runbook's fluids list is no status."""
_BULLET = re.compile(r"^\s*(?:[-*+•>]\s+|\d+[.)]\s+|#{1,6}\s+)+")
_CELL = re.compile(r"^([^:;]{1,60}?):\s+(.+)$")


class Cell(NamedTuple):
    """One 'Header: value' field of a table row or key-value line; a row label has no header."""

    header: str
    value: str


@dataclass(frozen=True)
class Unit:
    """A sentence, list item or table row of one evidence chunk, with its reading context."""

    text: str
    """The sentence as the chunk holds it (markdown and all); claims are rendered from it."""
    evidence: Evidence
    position: int
    """Its place in the chunk (0 is first)."""
    heading: str = ""
    """The nearest heading above it in the chunk."""
    lead: str = ""
    """The sentence ending in ':' that introduces it, when it is a list item or row under one."""
    superseded: bool = False
    """Whether its document says it is superseded, replaced or no longer valid."""
    is_heading: bool = False
    cells: tuple[Cell, ...] = field(default=())
    holds: tuple[str, ...] = ()
    """Amounts the question gives that a range of this unit holds ('EUR 6,200' in 'Above EUR 5,000'): read as
    stated by it."""
    out_of_range: bool = False
    """Its ranges are about other amounts than the question gives ('Above EUR 500,000' for EUR 15,000)."""

    @cached_property
    def stems(self) -> frozenset[str]:
        text = " ".join((self.text, *self.holds))
        return frozenset(stems(text)) | implied(text)

    @cached_property
    def context_stems(self) -> frozenset[str]:
        """Stems of what it reads in: the title, heading and lead."""
        return frozenset(stems(f"{self.evidence.title} {self.heading} {self.lead}")) - self.stems

    @cached_property
    def chunk_stems(self) -> frozenset[str]:
        """Stems of the rest of its chunk, the passage it is read in; planted instructions are not read.

        A table row is not read in its sibling rows: the Q3 row does not say what the Q2 row does.
        """
        return passage_stems(self.evidence.text, bool(self.cells)) - self.stems - self.context_stems

    @property
    def plain(self) -> str:
        """The text without bullets and emphasis marks."""
        return plain(self.text)


PASSAGES_CACHED = 256
"""Chunks whose passage stems are kept: more than a run reads (12 chunks, 30 for a family), so evaluate and
synthesise, and every unit of a chunk, share one reading of it."""


@lru_cache(maxsize=PASSAGES_CACHED)
def passage_stems(text: str, rows_out: bool) -> frozenset[str]:
    """Stems of a chunk's data sentences, without its table rows when `rows_out`: one reading per chunk.

    Every unit of a chunk reads in the same passage; read once per unit, a 1,000-row table cost a million row
    parses (`benchmarks/bench_reading.py`).
    """
    lines = data_sentences(text)
    if rows_out:
        lines = [line for line in lines if len(cells_of(line)) < 2]
    return frozenset(stems(" ".join(lines)))


def plain(text: str) -> str:
    """Markdown bullets, heading marks, emphasis and code ticks removed; spaces folded."""
    text = _BULLET.sub("", text.strip())
    text = re.sub(r"\*\*([^*]+)\*\*|__([^_]+)__", lambda m: m.group(1) or m.group(2), text)
    text = re.sub(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])|(?<!\w)_([^_\n]+)_(?!\w)", lambda m: m.group(1) or m.group(2),
                  text)
    text = text.replace("`", "").replace("|", " ")
    return " ".join(text.split())


def cells_of(text: str) -> tuple[Cell, ...]:
    """The fields of a row ('Label; Header: value; ...') or key-value line ('Europe: EUR 55 per day').

    A part without a header or colon after a field goes on that field's value: only a row's first part is its label.
    """
    parts = [p.strip() for p in plain(text).split("; ") if p.strip()]
    cells: list[Cell] = []
    for part in parts:
        match = _CELL.match(part)
        if match and len(match.group(1).split()) <= 6:
            cells.append(Cell(match.group(1).strip(), match.group(2).strip()))
        elif cells and cells[-1].header and ": " not in part:  # 'Notes: Next to the staff room; can be noisy'
            cells[-1] = Cell(cells[-1].header, f"{cells[-1].value}; {part}")
        else:
            cells.append(Cell("", part))
    if any(c.header for c in cells) and (len(cells) > 1 or len(parts) == 1):
        return tuple(cells)
    return ()


_IMPLIED = [(re.compile(p, re.I), frozenset(stems(words))) for p, words in (
    (r"\b(?:at least|no (?:less|fewer) than|not (?:less|fewer) than|a minimum of)\b", "minimum min"),
    (r"\b(?:up to|at most|no more than|not more than|(?:not|never) (?:to )?exceed|a maximum of|capped at)\b",
     "maximum max"),
    (r"\blong\b", "length"), (r"\bwide\b", "width"), (r"\b(?:high|tall)\b", "height"), (r"\bdeep\b", "depth"),
    (r"\bheavy\b", "weight"),
    (r"\b(?:authori[sz]\w*|approv\w*|okay(?:s|ed)?|sanction\w*|sign(?:s|ed|ing)?[ -]off)\b",
     "approve authorise authorize okay ok sanction sign"),
)]
"""Words a passage says without writing them: 'at least twelve characters long' gives a minimum length; 'may
authorise' says who can okay, approve or sign off."""


def implied(text: str) -> frozenset[str]:
    """The stems of what the text says in other words (a bound's side, a measure by its adjective)."""
    return frozenset().union(*(words for pattern, words in _IMPLIED if pattern.search(text)))


PAIR = re.compile(r"^([^;:]{1,40});\s(?=\S)")
"""A line of a plain-text table laid out in columns, as ingest writes it ('Monday to Friday; 8am - 4pm'); a row of
fields ('Name: ...; Role: ...') is none."""


def _is_heading(sentence: str, title: str, following: bool) -> bool:
    """Markdown headings, the title line, and short label lines (no full stop, no fields) followed by text."""
    stripped = sentence.strip()
    if stripped.startswith("#"):
        return True
    if normalise_name(plain(stripped)) in {normalise_name(title), ""}:
        return True
    words = plain(stripped).split()
    if PAIR.match(stripped):  # 'Saturday; 9am - 1pm': a line of a plain-text table, not a heading
        return False
    return following and len(words) <= 7 and not re.search(r"[.!?:;]$|:\s", stripped) and \
        not _BULLET.match(stripped) and bool(words) and words[0][:1].isupper()


def chunk_ordinal(chunk_id: str) -> int | None:
    """A chunk's place in its document, from its id ('doc#2' -> 2); None when the id does not end in one."""
    ordinal = chunk_id.rpartition("#")[2]
    return int(ordinal) if ordinal.isdigit() else None


def units_of(evidence: Evidence, older: bool = False) -> list[Unit]:
    """The units of one chunk, in reading order; instructions found inside the document are left out.

    `older`: another document held is a newer version of this one, so it reads as superseded.
    """
    # a table row is one unit even when a cell holds a full stop ('excl. VAT'); other lines split into sentences;
    # an HTML comment is no part of what the document's readers see
    sentences = [piece for line in visible_text(evidence.text).split("\n") for s in
                 ([line.strip()] if len(cells_of(line)) > 1 else chunk_sentences(line)) if s
                 for piece in bounded_pieces(s)]  # an index chunked before the bound was set reads bounded too
    superseded = older or bool(_SUPERSEDED.search(evidence.title) or _SUPERSEDED.search(evidence.text[:400]))
    paired = [bool(PAIR.match(s.strip())) for s in sentences] + [False]
    data = data_mask(sentences)
    units: list[Unit] = []
    heading, lead = "", ""
    for i, sentence in enumerate(sentences):
        heading_like = _is_heading(sentence, evidence.title, i + 1 < len(sentences))
        if not data[i]:
            continue
        if heading_like:
            heading, lead = plain(sentence), ""
            units.append(Unit(sentence, evidence, i, heading=heading, superseded=superseded, is_heading=True))
            continue
        units.append(Unit(sentence, evidence, i, heading=heading, lead=lead, superseded=superseded,
                          cells=cells_of(sentence)))
        if sentence.rstrip().endswith(":") or paired[i + 1] and not paired[i]:
            lead = plain(sentence)  # a label over lines laid out in columns ('Northgate - "The Coffee Hub"')
        elif not _BULLET.match(sentence) and not cells_of(sentence) and not paired[i]:
            lead = ""
    return units
