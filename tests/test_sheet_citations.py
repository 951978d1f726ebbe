"""A passage from a workbook names its sheet (`sheet`) in chunks, both stores, search results and citations."""

import json
import sqlite3

import openpyxl
import pytest

from boundloop.cli.main import main
from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_folder
from boundloop.retrieval.search import hybrid_search as search
from boundloop.retrieval.sqlite_index import SqliteIndex
from boundloop.retrieval.sqlite_schema import SCHEMA_VERSION
from tests.conftest import HashEncoder, access
from tests.pdfgen import write_pdf


def write_budget(path):
    book = openpyxl.Workbook()
    travel = book.active
    travel.title = "Travel 2026"
    travel.append(["Office", "Flights budget"])
    travel.append(["Lisbon", "41,000 EUR"])
    travel.append(["Tilburg", "27,500 EUR"])
    rooms = book.create_sheet("Rooms")
    rooms.append(["Room", "Seats"])
    rooms.append(["Atlas", "12"])
    book.save(str(path))
    return path


@pytest.fixture
def share(tmp_path):
    root = tmp_path / "share"
    root.mkdir()
    write_budget(root / "budget.xlsx")
    write_pdf(root / "guide.pdf", ["Expenses are claimed monthly.", "Flights are booked through the portal."])
    (root / "acl.json").write_text(json.dumps({"*": ["all-staff"]}))
    return root


def test_a_workbooks_chunks_name_their_sheet_and_no_page(share):
    documents = {d.doc_id: d for d in load_folder(share) if isinstance(d, Document)}
    budget = chunk_document(documents["budget"])
    assert {c.sheet for c in budget} == {"Travel 2026", "Rooms"} and all(c.page is None for c in budget)
    assert "Office: Lisbon; Flights budget: 41,000 EUR" in next(c.text for c in budget if c.sheet == "Travel 2026")
    guide = chunk_document(documents["guide"])
    assert [(c.page, c.sheet) for c in guide] == [(1, None), (2, None)]


def test_search_hits_carry_the_sheet_in_each_store(share, empty_backend):
    ingest(empty_backend, HashEncoder(), load_folder(share), show_progress=False)
    hits = search(empty_backend, HashEncoder(), "Lisbon flights budget", access("all-staff"), k=10)
    by_doc = {(h.doc_id, h.sheet, h.page) for h in hits}
    assert ("budget", "Travel 2026", None) in by_doc and ("guide", None, 2) in by_doc


def test_an_index_from_before_sheets_is_upgraded_and_a_read_only_one_still_searched(share, tmp_path, monkeypatch):
    index = SqliteIndex(tmp_path / "idx", create=True)
    ingest(index, HashEncoder(), load_folder(share), show_progress=False)
    index.close()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")  # as schema version 2 wrote it: no sheet, no markdown
    db.execute("ALTER TABLE chunks DROP COLUMN sheet")
    db.execute("ALTER TABLE chunks DROP COLUMN markdown")
    db.execute("ALTER TABLE chunks DROP COLUMN document_date")
    db.execute("ALTER TABLE chunks DROP COLUMN units")
    db.execute("UPDATE meta SET value='2' WHERE key='schema_version'")
    db.commit()
    db.close()
    with monkeypatch.context() as patch:  # a folder this process cannot write: opened read-only, searched as it is
        patch.setattr("boundloop.retrieval.sqlite_index.os.access", lambda *_: False)
        old = SqliteIndex(tmp_path / "idx")
        assert old.read_only
        hits = search(old, HashEncoder(), "Lisbon flights budget", access("all-staff"), k=3)
        assert hits and all(h.sheet is None and h.document_date is None and h.units is None for h in hits)
        old.close()
    index = SqliteIndex(tmp_path / "idx")
    assert index._meta("schema_version") == str(SCHEMA_VERSION)
    again = ingest(index, HashEncoder(), load_folder(share), show_progress=False)
    assert again.unchanged == 2  # the column came back empty; nothing was re-embedded for it
    index.close()


@pytest.mark.slow
def test_search_json_and_ask_json_name_the_sheet(share, tmp_path, capsys, monkeypatch, directory_file,
                                                  real_encoder):
    monkeypatch.setenv("BOUNDLOOP_INDEX", str(tmp_path / "idx"))
    monkeypatch.setenv("BOUNDLOOP_DIRECTORY", str(directory_file))
    assert main(["ingest", str(share)]) == 0
    capsys.readouterr()
    assert main(["search", "Lisbon flights budget", "--user", "bob", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert any(r["doc_id"] == "budget" and r["sheet"] == "Travel 2026" and r["page"] is None for r in results)
    assert all("sheet" in r for r in results)
    assert main(["ask", "What is the Lisbon office's flights budget?", "--user", "bob", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert "41,000" in answer["answer"]
    assert {"doc_id": "budget", "sheet": "Travel 2026", "page": None}.items() <= answer["citations"][0].items()
