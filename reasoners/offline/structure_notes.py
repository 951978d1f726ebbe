"""What the trace says of the structure the answer was read from, when it was missing or partial.

A document with no headings, fields, rows or items (one long paragraph) is read as sentences; a table without a
header row gives cells without headers; a statement dated in a form no date reader knows ('from Q3 FY25') is read
as undated. None of these fails: the synthesise span says so, so 'why this answer?' shows what the reader had.
"""

from __future__ import annotations

from boundloop.domain.dates import unread_date
from boundloop.domain.models import Draft, Evidence
from boundloop.retrieval.typed_units import Context, Segment, chunk_lines, read_units
from boundloop.retrieval.unit_text import plain


def _notes(chunk_id: str, segments: list[Segment]) -> list[str]:
    notes: list[str] = []
    if segments and all(s.kind == "sentence" for s in segments):
        notes.append(f"{chunk_id} has no headings, fields, rows or items: read as sentences")
    if any(s.kind == "row" and not any(header for header, _ in s.cells) for s in segments):
        notes.append(f"{chunk_id} has a table without a header row: its cells are read without headers")
    unread = next((words for s in segments if (words := unread_date(plain(s.text)))), "")
    if unread:
        notes.append(f"{chunk_id} dates a statement in a form not read as a date ('{unread}'): read as undated")
    return notes


def structure_note(draft: Draft, evidence: list[Evidence]) -> str:
    """Notes on the cited chunks (else the best-scored one): '' when their structure was read in full."""
    cited = {chunk_id for claim in draft.claims for chunk_id in claim.citations}
    chunks = [e for e in evidence if e.chunk_id in cited] or sorted(evidence, key=lambda e: -e.score)[:1]
    return "; ".join(note for e in chunks for note in _notes(e.chunk_id, read_units(
        chunk_lines(e.text), e.title, Context(tuple(e.heading_path), e.lead))))
