"""The passages route gives each cited passage's Markdown as written beside its text, bounded, for the page."""

from __future__ import annotations

import json
import sqlite3

import pytest
from fastapi.testclient import TestClient

from boundloop.retrieval.chunk_markdown import MAX_MARKDOWN_CHARS
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.retrieval.sqlite_index import SqliteIndex
from boundloop.service.app import create_app
from tests.service.conftest import make_state
from tests.service.keys import auth

LEAVE = """# Leave Policy 2026

## Annual leave by office

| Office | Annual leave |
|---|---|
| Lisbon | 25 working days |
| Tilburg | 27 working days |
"""
DOCS = [
    {"id": "leave", "title": "Leave Policy 2026", "acl": ["all-staff"], "text": LEAVE},
    {"id": "salaries", "title": "Salary bands", "acl": ["hr"],
     "text": "## Bands\n\n| Level | Band |\n|---|---|\n| L5 | EUR 80,000 to EUR 95,000 |\n\nCANARY-HR-1111."},
]
QUESTION = {"question": "How many days of annual leave do staff in the Lisbon office get?"}


@pytest.fixture
def leave_index(tmp_path, encoder):
    docs = tmp_path / "docs.jsonl"
    docs.write_text("\n".join(json.dumps(d) for d in DOCS) + "\n")
    index = SqliteIndex(tmp_path / "index", create=True)
    ingest(index, encoder, load_jsonl(docs), show_progress=False)
    yield index
    index.close()


def _ask(client: TestClient, user: str = "bob") -> tuple[dict, list[dict]]:
    result = client.post("/ask", json=QUESTION, headers=auth(user)).json()
    assert result["status"] == "answered", result
    passages = client.get(f"/runs/{result['run_id']}/passages", headers=auth(user)).json()["passages"]
    return result, passages


def test_a_cited_table_comes_with_its_markdown_and_the_text_the_run_read(leave_index, encoder, tmp_path):
    with TestClient(create_app(make_state(leave_index, encoder, tmp_path))) as client:
        result, passages = _ask(client)
    leave = next(p for p in passages if p["doc_id"] == "leave")
    assert "Office: Lisbon; Annual leave: 25 working days" in leave["text"]  # flat, as the reader and verifier read
    assert leave["markdown"] == LEAVE.strip()  # the whole short document, headings and table as written
    assert set(leave) == {"marker", "doc_id", "chunk_id", "title", "page", "sheet", "text", "markdown"}
    assert all(len(p["markdown"]) <= MAX_MARKDOWN_CHARS for p in passages)
    assert {p["chunk_id"] for p in passages} == {c["chunk_id"] for c in result["citations"]}
    assert "CANARY-HR" not in json.dumps(passages)  # bob cannot read the salary table, in either form


def _rewrite(index_dir, sql: str, *args) -> None:
    db = sqlite3.connect(index_dir / "index.db")
    db.execute(sql, args)
    db.commit()
    db.close()


@pytest.mark.parametrize("change", [
    ("UPDATE chunks SET markdown = ''",),  # a row stored before the index kept markdown
    ("UPDATE chunks SET text = text || ' Changed.'",),  # the passage changed since the run: not its markdown
    ("UPDATE chunks SET markdown = ?", "| a |\n" * MAX_MARKDOWN_CHARS),  # over the bound (never written so)
])
def test_a_passage_without_usable_markdown_is_shown_by_its_text_alone(leave_index, encoder, tmp_path, change):
    with TestClient(create_app(make_state(leave_index, encoder, tmp_path))) as client:
        result = client.post("/ask", json=QUESTION, headers=auth("bob")).json()
        _rewrite(tmp_path / "index", *change)
        passages = client.get(f"/runs/{result['run_id']}/passages", headers=auth("bob")).json()["passages"]
    leave = next(p for p in passages if p["doc_id"] == "leave")
    assert leave["markdown"] == "" and "Office: Lisbon; Annual leave: 25 working days" in leave["text"]


def test_markdown_of_a_passage_the_owner_may_no_longer_read_is_not_returned(leave_index, encoder, tmp_path):
    with TestClient(create_app(make_state(leave_index, encoder, tmp_path))) as client:
        result = client.post("/ask", json=QUESTION, headers=auth("bob")).json()
        _rewrite(tmp_path / "index", "UPDATE chunks SET acl = '[\"leadership\"]' WHERE doc_id = 'leave'")
        passages = client.get(f"/runs/{result['run_id']}/passages", headers=auth("bob")).json()["passages"]
    assert passages == []
