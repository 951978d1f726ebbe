"""A chunk's typed units: headings, `Label: value` fields, table rows, list items and sentences, read once.

Each unit has the heading path and lead-in it reads under and, for fields and rows, its cells.

One reading for ingest and the reader. Ingest reads a whole page once (`page_contexts`), so a chunk that starts inside
section '5. Approval of claims', or at the third item of a list under 'The following roles may approve:', knows the
headings and the lead-in an earlier chunk held; it stores the chunk's units and that context (`Context`) with the
chunk. The reader reads the chunk's text with the same function and the stored context (`read_units`), so both
get the same units; an index written before units were stored gives no context, and the chunk reads as it stands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, NamedTuple

from pydantic import BaseModel, Field, ValidationError

from boundloop.domain.dates import statement_date
from boundloop.domain.sentences import bounded_pieces, chunk_sentences
from boundloop.policies.instructions import data_mask, visible_text
from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.unit_text import (
    BULLET,
    MARKDOWN_HEADING,
    PAIR,
    Cell,
    cells_of,
    headerless_cells,
    heading_level,
    heading_text,
    is_heading,
    is_title,
    plain,
)

_NUMBER = re.compile(r"^\d+(?:\.\d+)*[.)]?$")
UnitKind = Literal["heading", "field", "row", "item", "sentence"]


class Context(NamedTuple):
    """Where a chunk starts in its document: the headings it reads under, outermost first, and the open lead-in."""

    heading_path: tuple[str, ...] = ()
    lead: str = ""


TOP = Context()
"""A document's top: no heading open, no lead-in."""


@dataclass(frozen=True)
class Segment:
    """One unit as read from a chunk's lines: its kind, its line, its place, and what it reads under."""

    kind: UnitKind
    text: str
    position: int
    """Its place among the chunk's lines (0 is first)."""
    heading: str
    """The nearest heading above it (its own text for a heading)."""
    heading_path: tuple[str, ...]
    lead: str
    cells: tuple[Cell, ...]
    """Its fields with their headers; a row of a table without a header row has cells without headers."""


class TypedUnit(BaseModel):
    """A unit as ingest stores it with its chunk and `search --json` shows it."""

    kind: UnitKind = Field(description="heading, field, row, item or sentence.")
    text: str = Field(description="The unit's line as the chunk holds it.")
    heading_path: list[str] = Field(default_factory=list, description="The headings it reads under, from the "
                                    "document's top (across chunk boundaries), outermost first.")
    lead: str = Field(default="", description="The lead-in it reads under ('The following roles may approve:').")
    cells: list[tuple[str, str]] = Field(default_factory=list, description="(header, value) of a field or row; the "
                                         "header is '' for a table without a header row.")
    date: str | None = Field(default=None, description="The statement's own date, ISO ('with effect from 1 April "
                                                       "2025'); null when it gives none.")




def chunk_lines(text: str) -> list[str]:
    """The lines a chunk's units are read from: one per sentence, row or item, bounded in length.

    A table row is one unit even when a cell holds a full stop ('excl. VAT'); other lines split into sentences ('## 5.
    Approval of claims' into two headings); an HTML comment is no part of what the document's readers see.
    """
    return [piece for line in visible_text(text).split("\n") for s in
            ([line.strip()] if len(cells_of(line)) > 1 else chunk_sentences(line)) if s
            for piece in bounded_pieces(s)]  # an index chunked before the bound was set reads bounded too


def _kind(line: str, cells: tuple[Cell, ...], headerless: tuple[Cell, ...]) -> UnitKind:
    if len(cells) > 1 or headerless:
        return "row"
    if cells:
        return "field"
    return "item" if BULLET.match(line) else "sentence"


def _headings(lines: list[str], title: str) -> tuple[list[str], list[int]]:
    """Each line as a heading path shows it, and its level; a section number split from its words is joined again.

    '## 5. Approval of claims' is read as the sentences '## 5.' and 'Approval of claims' (the reader has always read
    it so): both are the section '5. Approval of claims' at level 2.
    """
    shown, levels = [heading_text(line) for line in lines], [heading_level(line) for line in lines]
    for i in range(len(lines) - 1):
        if MARKDOWN_HEADING.match(lines[i].strip()) and _NUMBER.match(shown[i]) and \
                not lines[i + 1].lstrip().startswith("#") and is_heading(lines[i + 1], title, i + 2 < len(lines)):
            shown[i] = shown[i + 1] = f"{shown[i]} {shown[i + 1]}"
            levels[i + 1] = levels[i]
    return shown, levels


def _read(lines: list[str], title: str, seed: Context) -> tuple[list[Segment], list[Context]]:
    """The units of `lines` read under `seed`, and the context before each line.

    A heading closes the sections at its level and below, and ends the lead-in; a line ending in ':' (or a label
    over lines laid out in columns) opens one, which list items, fields and rows keep and prose ends. A heading the
    seed already reads under (the chunker repeats a section's headings over a window that starts inside it) changes
    nothing: the chunk still reads inside the sections the seed names, under its lead-in.
    """
    shown, level_of = _headings(lines, title)
    levels = {shown[i]: level_of[i] for i, line in enumerate(lines) if line.lstrip().startswith("#")}
    path = [(levels.get(h, 7), h) for h in seed.heading_path]
    seeded = set(seed.heading_path)
    heading, lead = (plain(seed.heading_path[-1]) if seed.heading_path else ""), seed.lead
    paired = [bool(PAIR.match(line.strip())) for line in lines] + [False]
    data = data_mask(lines)
    segments: list[Segment] = []
    before: list[Context] = []
    for i, line in enumerate(lines):
        before.append(Context(tuple(h for _, h in path), lead))
        # a short line with a marked heading right after it heads nothing: it is the content of the heading above
        # ('### SITE MANAGER' / 'Beatriz Lopes (Training Centre Manager)' / '### RECEPTION')
        following = i + 1 < len(lines) and not lines[i + 1].lstrip().startswith("#")
        heading_like = is_heading(line, title, following)
        if not data[i]:
            continue
        if heading_like:
            text = plain(line)
            if shown[i] not in seeded or not any(h == shown[i] for _, h in path):
                if not is_title(line, title):
                    path = [(lv, h) for lv, h in path if lv < level_of[i]] + [(level_of[i], shown[i])]
                heading, lead = text, ""
            segments.append(Segment("heading", line, i, text, tuple(h for _, h in path), "", ()))
            continue
        cells = cells_of(line)
        headerless = () if cells else headerless_cells(line)
        segments.append(Segment(_kind(line, cells, headerless), line, i, heading, tuple(h for _, h in path), lead,
                                cells or headerless))
        if line.rstrip().endswith(":") or paired[i + 1] and not paired[i]:
            lead = plain(line)  # a label over lines laid out in columns ('Northgate - "The Coffee Hub"')
        elif not BULLET.match(line) and not cells and not headerless:
            lead = ""
    before.append(Context(tuple(h for _, h in path), lead))
    return segments, before


def read_units(lines: list[str], title: str, seed: Context = TOP) -> list[Segment]:
    """The units of a chunk's lines (`chunk_lines`), read under `seed`; instructions found inside it are left out."""
    return _read(lines, title, seed)[0]


def page_contexts(sentences: list[str], title: str, seed: Context = TOP) -> list[Context]:
    """For each of a page's sentences (the chunker's lines), and after the last, the context it starts in.

    Read from the page's top, which starts in `seed` (the context the page before ended in).
    """
    lines = [chunk_lines(sentence) for sentence in sentences]
    before = _read([line for own in lines for line in own], title, seed)[1]
    starts = [0]
    for own in lines:
        starts.append(starts[-1] + len(own))
    return [before[at] for at in starts]


def chunk_units(text: str, title: str, seed: Context, document_date: str | None) -> ChunkUnits:
    """What ingest stores with a chunk of `text` that starts in `seed`."""
    return ChunkUnits(heading_path=list(seed.heading_path), lead=seed.lead,
                      units=typed(read_units(chunk_lines(text), title, seed), document_date))


def typed(segments: list[Segment], document_date: str | None) -> list[TypedUnit]:
    """The units to store: a statement's own date is read, one without its year in its document's."""
    return [TypedUnit(kind=s.kind, text=s.text, heading_path=list(s.heading_path), lead=s.lead,
                      cells=[(c.header, c.value) for c in s.cells],
                      date=None if s.kind == "heading" else statement_date(plain(s.text), document_date))
            for s in segments]


class ChunkUnits(BaseModel):
    """What ingest stores with a chunk (one JSON column): where it starts in its document, and its units."""

    heading_path: list[str] = Field(default_factory=list, description="The headings the chunk's first line reads "
                                    "under, from the document's top, outermost first.")
    lead: str = Field(default="", description="The lead-in its first lines read under, held by an earlier chunk.")
    units: list[TypedUnit] = Field(default_factory=list)

    @property
    def context(self) -> Context:
        return Context(tuple(self.heading_path), self.lead)


def stored_units(stored: str | None, chunk_id: str) -> ChunkUnits | None:
    """The units stored with a chunk; None for a chunk written before units were stored (or by an older chunker)."""
    if stored is None:
        return None
    try:
        return ChunkUnits.model_validate_json(stored)
    except ValidationError as exc:
        raise IndexStoreError(f"chunk {chunk_id}: its stored units are not readable ({exc.error_count()} errors); "
                              "re-ingest its document") from None


def storable(units: ChunkUnits | None) -> str | None:
    """The units as stored: compact JSON (None stays None)."""
    return None if units is None else units.model_dump_json()
