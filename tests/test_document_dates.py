"""A document's date read at ingest, stored with its chunks and carried to search hits and the reader's evidence."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from boundloop.cli.main import main
from boundloop.domain.dates import dates_in, in_year, read_date
from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.document_date import document_date
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_folder
from boundloop.retrieval.search import hybrid_search
from boundloop.retrieval.sqlite_index import SqliteIndex
from boundloop.retrieval.sqlite_schema import SCHEMA_VERSION

STAFF = AccessFilter(frozenset({"all-staff"}))


@pytest.mark.parametrize(("written", "iso"), [
    ("14 March 2025", "2025-03-14"), ("14th of March 2025", "2025-03-14"), ("March 14, 2025", "2025-03-14"),
    ("2025-03-14", "2025-03-14"), ("14/03/2025", "2025-03-14"), ("03.04.2025", "2025-04-03"),
    ("Wed, 12 Mar 2025 09:14:22 +0000", "2025-03-12"), ("March 2025", "2025-03"), ("SEPTEMBER 2024", "2024-09"),
    ("2025", "2025"), ("Minutes — 14 March 2025", "2025-03-14"),
])
def test_the_date_forms_documents_use_are_read_as_iso(written, iso):
    assert read_date(written) == iso


@pytest.mark.parametrize("written", ["Q3 FY25", "31/31/2025", "13/13/2025", "next Tuesday", "", "Band 2 may claim"])
def test_a_form_that_is_no_date_gives_none_and_never_fails(written):
    assert read_date(written) is None


def test_a_date_without_its_year_takes_the_year_it_is_read_in():
    found = dates_in("Rates change from 1 May.")
    assert [f.written for f in found] == ["1 May"] and read_date("from 1 May") is None
    assert in_year(found[0], "2025-03-12") == "2025-05-01" and in_year(found[0], None) is None


def _doc(text: str, title: str = "Policy", source: str = "policy.md", **metadata: object) -> Document:
    return Document("doc", title, text, ("staff",), source=source, metadata=dict(metadata))


def test_front_matter_dates_the_document_before_any_field():
    assert document_date(_doc("Effective date: 1 April 2023\n\nText.", effective="2024-09-01")) == "2024-09-01"


def test_an_effective_date_field_wins_over_other_date_fields_near_the_top():
    text = "# Lone Working\nVersion: 2.0\nIssued: 3 May 2022\nEffective date: 1 September 2024\nReview date: 2026\n"
    assert document_date(_doc(text)) == "2024-09-01"
    assert document_date(_doc("# Guide\n**Last updated:** 14/03/2025\n\nBody.")) == "2025-03-14"
    table = "# Policy\n\n| | |\n|---|---|\n| Version | 3.0 |\n| Effective date | 1 January 2024 |\n"
    assert document_date(_doc(table)) == "2024-01-01"


def test_an_email_saved_as_text_is_dated_by_its_date_header():
    text = "From: Finance <f@example.com>\nTo: All Staff\nDate: Wed, 12 Mar 2025 09:14:22 +0000\nSubject: Rates\n\nHi."
    assert document_date(_doc(text, source="mail.txt")) == "2025-03-12"


def test_a_review_date_or_a_date_deep_in_the_text_does_not_date_the_document():
    assert document_date(_doc("# Guide\nReview date: September 2026\n\nBody.")) is None
    deep = "# Guide\n" + "Line.\n" * 30 + "Date: 1 June 2020\n"
    assert document_date(_doc(deep)) is None


def test_minutes_are_dated_by_their_heading():
    assert document_date(_doc("# Minutes — 14 March 2025\n\nPresent: A, B.", title="Ops minutes")) == "2025-03-14"


def test_then_the_title_then_the_file_name_and_a_version_is_no_year():
    assert document_date(_doc("Body.", title="Travel Policy 2026")) == "2026"
    assert document_date(_doc("Body.", source="notes/ops-minutes-2024-03-12.txt")) == "2024-03-12"
    assert document_date(_doc("Body.", title="Travel Policy v2", source="travel-policy-v2.md")) is None


def test_an_unreadable_field_gives_way_to_the_next_source():
    assert document_date(_doc("Effective date: Q3 FY25\n\nBody.", title="Uniform Policy 2024")) == "2024"
    assert document_date(_doc("Effective date: Q3 FY25\n\nBody.")) is None


def test_an_office_files_property_date_comes_last():
    assert document_date(_doc("Body.", source="report.docx", date="2025-06-30")) == "2025-06-30"
    dated = _doc("Effective date: 1 April 2023\n\nBody.", source="report.docx", date="2025-06-30")
    assert document_date(dated) == "2023-04-01"


def test_every_chunk_of_a_document_carries_its_date():
    rules = "\n\n".join(f"Rule {i} says a lot of words." for i in range(80))
    text = "# Policy\nEffective date: 1 April 2025\n\n" + rules
    chunks = chunk_document(_doc(text), max_words=40, overlap_words=5)
    assert len(chunks) > 3 and {c.document_date for c in chunks} == {"2025-04-01"}


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    (folder / "mileage.md").write_text("---\nacl: [all-staff]\n---\n# Mileage\nEffective date: 1 April 2023\n\n"
                                       "Cars are paid 45p per mile.\n")
    (folder / "notes.md").write_text("---\nacl: [all-staff]\n---\n# Canteen notes\n\nThe canteen opens at noon.\n")
    return folder


def test_search_hits_and_the_search_json_carry_the_document_date(empty_backend, encoder, tmp_path):
    ingest(empty_backend, encoder, load_folder(_folder(tmp_path)), show_progress=False)
    hits = {h.doc_id: h for h in hybrid_search(empty_backend, encoder, "mileage canteen", STAFF, k=5)}
    assert hits["mileage"].document_date == "2023-04-01" and hits["notes"].document_date is None
    assert hits["mileage"].model_dump()["document_date"] == "2023-04-01"


def test_an_index_from_before_dates_reads_undated_until_the_next_ingest_writes_them(tmp_path, encoder):
    folder = _folder(tmp_path)
    index = SqliteIndex(tmp_path / "idx", create=True)
    ingest(index, encoder, load_folder(folder), show_progress=False)
    index.close()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")  # as schema version 4 wrote it, by an older chunker
    db.execute("ALTER TABLE chunks DROP COLUMN document_date")
    db.execute("ALTER TABLE chunks DROP COLUMN units")  # added by version 6
    db.execute("UPDATE meta SET value='4' WHERE key='schema_version'")
    db.execute("UPDATE documents SET content_hash='written-by-sent-v11'")
    db.commit()
    db.close()
    index = SqliteIndex(tmp_path / "idx")
    try:
        assert index.load_chunks(["mileage#0"], STAFF)["mileage#0"].document_date is None
        again = ingest(index, encoder, load_folder(folder), show_progress=False)
        assert again.chunks_written == 2
        assert index.load_chunks(["mileage#0"], STAFF)["mileage#0"].document_date == "2023-04-01"
    finally:
        index.close()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")
    assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    db.close()


@pytest.mark.slow
def test_the_search_command_prints_the_date_in_json(tmp_path, monkeypatch, capsys, directory_file, real_encoder):
    monkeypatch.setenv("BOUNDLOOP_INDEX", str(tmp_path / "idx"))
    monkeypatch.setenv("BOUNDLOOP_DIRECTORY", str(directory_file))
    assert main(["ingest", str(_folder(tmp_path))]) == 0
    capsys.readouterr()
    assert main(["search", "mileage per mile", "--user", "alice", "--json", "--k", "1"]) == 0
    hit = json.loads(capsys.readouterr().out)["results"][0]
    assert (hit["doc_id"], hit["document_date"]) == ("mileage", "2023-04-01")
