"""Typed units stored with each chunk: both stores, an index from schema 5 migrated, `search --json`, and the
reader's use of what a chunk lost (its section heading) and its trace's notes on missing structure."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from boundloop.cli.main import main
from boundloop.domain.models import Claim, Draft, Evidence
from boundloop.policies.entitlements import AccessFilter
from boundloop.reasoners.offline.structure_notes import structure_note
from boundloop.reasoners.offline.units import units_of
from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_folder
from boundloop.retrieval.search import hybrid_search
from boundloop.retrieval.sqlite_index import SqliteIndex
from boundloop.retrieval.sqlite_schema import SCHEMA_VERSION

STAFF = AccessFilter(frozenset({"all-staff"}))
STEPS = "\n".join(f"- Step {i}: check the depot log sheet number {i} against the board." for i in range(20))


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    (folder / "approvals.md").write_text(
        "---\nacl: [all-staff]\n---\n# Approvals\n\n## 5. Approval of claims\n\nThe following roles may approve:\n\n"
        "- Line manager\n- Depot lead\n")
    (folder / "notes.md").write_text("---\nacl: [all-staff]\n---\n# Canteen notes\n\nThe canteen opens at noon.\n")
    return folder


def test_search_hits_carry_the_units_and_heading_path(empty_backend, encoder, tmp_path):
    ingest(empty_backend, encoder, load_folder(_folder(tmp_path)), show_progress=False)
    hit = next(h for h in hybrid_search(empty_backend, encoder, "approve claims", STAFF, k=5)
               if h.doc_id == "approvals")
    assert hit.units is not None and hit.heading_path == []
    item = hit.units[-1]
    assert (item.kind, item.text, item.heading_path, item.lead) == (
        "item", "- Depot lead", ["5. Approval of claims"], "The following roles may approve:")


def test_an_index_of_schema_5_still_answers_and_the_next_ingest_writes_units(tmp_path, encoder):
    folder = _folder(tmp_path)
    index = SqliteIndex(tmp_path / "idx", create=True)
    ingest(index, encoder, load_folder(folder), show_progress=False)
    index.close()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")  # as schema version 5 wrote it, by the chunker sent-v12
    db.execute("ALTER TABLE chunks DROP COLUMN units")
    db.execute("UPDATE meta SET value='5' WHERE key='schema_version'")
    db.execute("UPDATE documents SET content_hash='written-by-sent-v12'")
    db.commit()
    db.close()
    index = SqliteIndex(tmp_path / "idx")
    try:
        hits = hybrid_search(index, encoder, "approve claims", STAFF, k=5)
        old = next(h for h in hits if h.doc_id == "approvals")
        assert (old.units, old.heading_path) == (None, None) and "Depot lead" in old.text  # read from its text
        evidence = Evidence(chunk_id=old.chunk_id, doc_id=old.doc_id, title=old.title, text=old.text, score=1.0,
                            hop=1, heading_path=old.heading_path or [], lead=old.lead)
        assert [u.lead for u in units_of(evidence) if u.text == "- Depot lead"] == ["The following roles may approve:"]
        again = ingest(index, encoder, load_folder(folder), show_progress=False)
        assert again.chunks_written == 2
        stored = index.load_chunks([old.chunk_id], STAFF)[old.chunk_id].units
        assert stored is not None and stored.units[-1].lead == "The following roles may approve:"
    finally:
        index.close()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")
    assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    db.close()


@pytest.mark.slow
def test_the_search_command_prints_units_and_heading_path_in_json(tmp_path, monkeypatch, capsys, directory_file,
                                                                  real_encoder):
    monkeypatch.setenv("BOUNDLOOP_INDEX", str(tmp_path / "idx"))
    monkeypatch.setenv("BOUNDLOOP_DIRECTORY", str(directory_file))
    assert main(["ingest", str(_folder(tmp_path))]) == 0
    capsys.readouterr()
    assert main(["search", "who may approve claims", "--user", "alice", "--json", "--k", "1"]) == 0
    hit = json.loads(capsys.readouterr().out)["results"][0]
    assert {"doc_id", "chunk_id", "title", "text", "score", "document_date", "bm25_rank", "dense_rank"} <= set(hit)
    assert hit["doc_id"] == "approvals" and hit["heading_path"] == []
    assert hit["units"][-1] == {"kind": "item", "text": "- Depot lead", "heading_path": ["5. Approval of claims"],
                                "lead": "The following roles may approve:", "cells": [], "date": None}


def test_a_mid_section_chunk_reads_the_heading_it_lost_as_context():
    text = "Depot procedures\n\nNight shift checks\n\n" + STEPS + "\n"  # plain text: no Markdown headings to repeat
    chunks = chunk_document(Document("ops", "Depot procedures", text, ("staff",)), max_words=60, overlap_words=5)
    late = next(c for c in chunks if "Step 15:" in c.text and "Night shift" not in c.text)
    assert late.units is not None and late.units.heading_path == ["Night shift checks"]
    stored = Evidence(chunk_id=late.chunk_id, doc_id="ops", title=late.title, text=late.text, score=1.0, hop=1,
                      heading_path=late.units.heading_path, lead=late.units.lead)
    bare = stored.model_copy(update={"heading_path": [], "lead": ""})
    step = next(u for u in units_of(stored) if "Step 15:" in u.text)
    assert {"night", "shift"} <= step.context_stems
    assert not {"night", "shift"} & next(u for u in units_of(bare) if "Step 15:" in u.text).context_stems
    assert step.heading == "" and step.lead == ""  # context only: a claim is never rendered with words not cited


def _evidence(text: str) -> Evidence:
    return Evidence(chunk_id="doc#0", doc_id="doc", title="Depot notes", text=text, score=1.0, hop=1)


def test_the_trace_says_when_units_fell_back_to_sentences_headerless_cells_or_an_unread_date():
    prose = _evidence("The depot opens early. It closes late on most weekdays. Staff sign in at the gate.")
    cited = Draft(claims=[Claim(text="The depot opens early.", citations=["doc#0"])])
    assert "doc#0 has no headings, fields, rows or items: read as sentences" in structure_note(cited, [prose])
    table = _evidence("| Leeds | 07:00 |\n| York | 08:00 |")
    assert "a table without a header row: its cells are read without headers" in structure_note(Draft(), [table])
    dated = _evidence("## Rates\nWith effect from Q3 FY25 the rate is 51p.")
    assert "a form not read as a date ('Q3 FY25')" in structure_note(Draft(), [dated])
    fields = _evidence("## Depot\nOpens: 07:00\nCloses: 19:00\nWith effect from 1 June 2025 the rate is 49p.")
    assert structure_note(Draft(), [fields]) == ""
