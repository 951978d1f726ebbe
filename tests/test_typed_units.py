"""Typed units kept with each chunk at ingest: kinds, cells, dates, and the headings and lead-in a chunk starts under.

The documents are invented for these tests. One function reads units for ingest and for the reader, so what a chunk
stores is what the reader reads from its text and stored context.
"""

from __future__ import annotations

from boundloop.domain.models import Evidence
from boundloop.domain.text import stems
from boundloop.reasoners.offline.units import units_of
from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Chunk, Document
from boundloop.retrieval.typed_units import TypedUnit, chunk_lines, read_units, typed

POLICY = """# Claims handbook
Effective date: 1 March 2025

## 4. Submitting claims

Submit each claim within 30 days.
Receipts: required above GBP 25
Portal: claims.example

## 5. Approval of claims

Claims are checked by the finance team before approval.
The following roles may approve:

{roles}

| Band | Limit |
|---|---|
| A | GBP 500 |
| B | GBP 2,000 |

With effect from 1 June 2025 the mileage rate is 49p per mile.
"""
ROLES = "\n".join(f"- Regional lead number {i} for the northern depots" for i in range(24))


def _doc(text: str, title: str = "Claims handbook") -> Document:
    return Document("claims", title, text, ("staff",), source="claims.md")


def _chunks(text: str, **sizes: int) -> list[Chunk]:
    return chunk_document(_doc(text), **sizes)


def _units(chunks: list[Chunk]) -> list[TypedUnit]:
    return [u for c in chunks if c.units for u in c.units.units]


def _by_text(chunks: list[Chunk], start: str) -> TypedUnit:
    return next(u for u in _units(chunks) if u.text.startswith(start))


def test_each_unit_is_typed_heading_field_row_item_or_sentence_with_its_cells():
    chunks = _chunks(POLICY.format(roles=ROLES))
    assert _by_text(chunks, "## 5.").kind == _by_text(chunks, "Approval of claims").kind == "heading"
    assert (_by_text(chunks, "Receipts:").kind, _by_text(chunks, "Receipts:").cells) == (
        "field", [("Receipts", "required above GBP 25")])
    row = _by_text(chunks, "Band: B")
    assert (row.kind, row.cells) == ("row", [("Band", "B"), ("Limit", "GBP 2,000")])
    assert _by_text(chunks, "- Regional lead number 3 ").kind == "item"
    assert _by_text(chunks, "Submit each claim").kind == "sentence"


def test_a_chunk_that_starts_inside_a_section_knows_its_heading_path_and_lead_in():
    chunks = _chunks(POLICY.format(roles=ROLES), max_words=60, overlap_words=5)
    late = [c for c in chunks if c.units and "Regional lead number 20 " in c.text and "may approve" not in c.text]
    assert late, "the list must run past a chunk boundary"
    stored = late[0].units
    assert stored is not None
    assert stored.heading_path == ["5. Approval of claims"]
    assert stored.lead == "The following roles may approve:"
    item = next(u for u in stored.units if u.text.startswith("- Regional lead number 20 "))
    assert (item.heading_path, item.lead) == (["5. Approval of claims"],
                                              "The following roles may approve:")


def test_a_statement_keeps_its_own_date_and_a_date_in_an_unknown_form_is_none():
    chunks = _chunks(POLICY.format(roles=ROLES) + "\nFrom 1 August the rate is 50p.\n"
                     "With effect from Q3 FY25 the rate is 51p.\n")
    assert _by_text(chunks, "With effect from 1 June 2025").date == "2025-06-01"
    assert _by_text(chunks, "From 1 August").date == "2025-08-01"  # the year is the document's
    assert _by_text(chunks, "With effect from Q3 FY25").date is None
    assert _by_text(chunks, "Submit each claim").date is None


def test_the_reader_reads_the_units_ingest_stored():
    for chunk in _chunks(POLICY.format(roles=ROLES), max_words=60, overlap_words=5):
        stored = chunk.units
        assert stored is not None
        again = typed(read_units(chunk_lines(chunk.text), chunk.title, stored.context), chunk.document_date)
        assert again == stored.units  # the reader's function and the stored context give what ingest stored
        evidence = Evidence(chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, title=chunk.title, text=chunk.text,
                            score=1.0, hop=1, heading_path=stored.heading_path, lead=stored.lead)
        read = units_of(evidence)
        assert [(u.text, u.is_heading) for u in read] == [(u.text, u.kind == "heading") for u in stored.units]
        for unit, typed_unit in zip(read, stored.units, strict=True):
            if unit.is_heading:
                continue
            said = {w for w in stems(" ".join(typed_unit.heading_path)) if not w.isdigit()}
            assert said <= unit.context_stems | unit.stems  # the sections it reads under, carried or in the chunk


def test_without_a_stored_context_a_mid_list_chunk_reads_as_it_stands():
    chunk = next(c for c in _chunks(POLICY.format(roles=ROLES), max_words=60, overlap_words=5)
                 if "Regional lead number 20 " in c.text and "may approve" not in c.text)
    bare = Evidence(chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, title=chunk.title, text=chunk.text, score=1.0, hop=1)
    item = next(u for u in units_of(bare) if u.text.startswith("- Regional lead number 20 "))
    assert item.lead == ""  # an index from before units: the lead-in is in another chunk


def test_a_document_without_structure_reads_as_sentences():
    prose = " ".join(f"The depot at site {i} opens early and closes late on most weekdays." for i in range(40))
    units = _units(_chunks(prose))
    assert units and {u.kind for u in units} == {"sentence"}
    assert all(u.heading_path == [] and u.lead == "" and u.cells == [] for u in units)


def test_a_table_without_a_header_row_gives_cells_without_headers():
    text = "# Depots\n\nOpening hours by depot:\n\n| Leeds | 07:00 | 19:00 |\n| York | 08:00 | 18:00 |\n"
    units = _units(_chunks(text, ))
    row = next(u for u in units if "York" in u.text)
    assert (row.kind, row.cells) == ("row", [("", "York"), ("", "08:00"), ("", "18:00")])
    assert row.lead == "Opening hours by depot:" and row.heading_path == ["Depots"]


def test_a_long_line_without_punctuation_is_bounded_and_typed():
    units = _units(_chunks("word " * 3000))
    assert units and all(len(u.text) <= 800 for u in units)
