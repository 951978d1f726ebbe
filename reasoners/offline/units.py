"""Reading units: the sentences, list items and table rows of the evidence, each with the context it reads in.

A unit knows its section heading and lead-in ('A daily meal allowance replaces receipts:'), whether it is itself a
heading (never a claim), its table cells ('Room: 3.12'), and whether its document says it is superseded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from boundloop.domain.models import Evidence
from boundloop.domain.text import stems
from boundloop.policies.instructions import data_sentences
from boundloop.retrieval.typed_units import Context, Segment, chunk_lines, read_units
from boundloop.retrieval.unit_text import PAIR, Cell, cells_of, plain

__all__ = ["PAIR", "Cell", "Unit", "cells_of", "chunk_ordinal", "implied", "passage_stems", "plain", "units_of"]

_SUPERSEDED = re.compile(
    r"\b(superseded|no longer (in effect|valid|applies|in use|current)|replaced by|obsolete|archived|outdated|"
    r"deprecated|(?-i:DO NOT USE)|do not use (?:this|these) (?:\w+ )?(?:document|version|page|policy|procedure|"
    r"form|guide|runbook|sheet)s?|historical (version|record)|previous version)\b",
    re.IGNORECASE,
)
"""A document that says it is out of date. 'Do not use' counts as a banner or said of the document itself: 'We do not
use Type II fluid' in a runbook's fluids list is no status."""


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
    carried: str = ""
    """The section headings it reads under that an earlier chunk holds, as ingest stored them ('Night shift
    checks' over a chunk that starts at step 15): read as its context, never rendered into a claim."""

    @cached_property
    def stems(self) -> frozenset[str]:
        text = " ".join((self.text, *self.holds))
        return frozenset(stems(text)) | implied(text)

    @cached_property
    def context_stems(self) -> frozenset[str]:
        """Stems of what it reads in: the title, heading and lead, and what its chunk lost of them (`carried`)."""
        return frozenset(stems(f"{self.evidence.title} {self.heading} {self.lead} {self.carried}")) - self.stems

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


_IMPLIED = [(re.compile(p, re.I), frozenset(stems(words))) for p, words in (
    (r"\b(?:at least|no (?:less|fewer) than|not (?:less|fewer) than|a minimum of)\b", "minimum min"),
    (r"\b(?:up to|at most|no more than|not more than|(?:not|never) (?:to )?exceed|a maximum of|capped at)\b",
     "maximum max"),
    (r"\blong\b", "length"), (r"\bwide\b", "width"), (r"\b(?:high|tall)\b", "height"), (r"\bdeep\b", "depth"),
    (r"\bheavy\b", "weight"), (r"\b(?:saturdays?|sundays?)\b", "weekend weekends"),
    (r"\b(?:authori[sz]\w*|approv\w*|okay(?:s|ed)?|sanction\w*|sign(?:s|ed|ing)?[ -]off)\b",
     "approve authorise authorize okay ok sanction sign"),
)]
"""Words a passage says without writing them: 'at least twelve characters long' gives a minimum length; 'may
authorise' says who can okay, approve or sign off; a 'Saturday–Sunday' row is about the weekend."""


def implied(text: str) -> frozenset[str]:
    """The stems of what the text says in other words (a bound's side, a measure by its adjective)."""
    return frozenset().union(*(words for pattern, words in _IMPLIED if pattern.search(text)))


def chunk_ordinal(chunk_id: str) -> int | None:
    """A chunk's place in its document, from its id ('doc#2' -> 2); None when the id does not end in one."""
    ordinal = chunk_id.rpartition("#")[2]
    return int(ordinal) if ordinal.isdigit() else None


def units_of(evidence: Evidence, older: bool = False) -> list[Unit]:
    """The units of one chunk, in reading order; instructions found inside the document are left out.

    Read as ingest read them (`retrieval.typed_units`), under the headings and lead-in the chunk starts in when the
    index stored them. `older`: another document held is a newer version of this one, so it reads as superseded.
    """
    superseded = older or bool(_SUPERSEDED.search(evidence.title) or _SUPERSEDED.search(evidence.text[:400]))
    lines = chunk_lines(evidence.text)
    segments = read_units(lines, evidence.title)
    carried = [""] * len(segments)
    if evidence.heading_path:  # read again as ingest did: the headings the chunk lost are context
        carried = [_carried(stored, evidence.text) for stored in
                   read_units(lines, evidence.title, Context(tuple(evidence.heading_path), evidence.lead))]
    return [Unit(s.text, evidence, s.position, heading=s.heading, lead=s.lead, superseded=superseded,
                 is_heading=s.kind == "heading", cells=() if s.kind == "heading" else cells_of(s.text),
                 carried=carried[i])
            for i, s in enumerate(segments)]


def _carried(stored: Segment, text: str) -> str:
    """The section headings a unit reads under (as stored) that its chunk's own text does not give it.

    Only headings: a lead-in carried from an earlier chunk as context was measured worse (tune 282 -> 281: the
    overlapping chunk's copy of a list item, read under the carried lead-in, outscored the chunk that holds both).
    """
    return " ".join(h for h in stored.heading_path if plain(h) not in text)
