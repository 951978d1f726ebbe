"""Chunks keep their source lines as written (for the page), beside the flat text the reader reads."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from boundloop.domain.sentences import source_sentences, split_sentences
from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.chunk_markdown import MAX_MARKDOWN_CHARS
from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.retrieval.sqlite_index import SqliteIndex
from boundloop.retrieval.sqlite_schema import SCHEMA_VERSION

ROWS = "\n".join(f"| City {i} | {20 + i} working days |" for i in range(40))
POLICY = f"""# Leave Policy 2026

Staff take *annual leave* by office.

## Entitlements

| Office | Annual leave |
|---|---|
{ROWS}

Underlined heading
==================

- first item
  wrapped onto a second line
- second item with `code`
"""


def _chunks(text: str = POLICY, **sizes: int):
    return chunk_document(Document("leave", "Leave Policy 2026", text, ("all-staff",)), **sizes)


def test_a_chunk_cut_inside_a_table_keeps_its_heading_header_and_rule_above_its_rows():
    chunks = _chunks(max_words=60, overlap_words=10)
    inside = [c for c in chunks if "| City 20 |" in c.markdown and "| City 0 |" not in c.markdown]
    assert inside
    lines = inside[0].markdown.split("\n")
    assert lines[:4] == ["## Entitlements", "", "| Office | Annual leave |", "|---|---|"]
    assert lines[4].startswith("| City ") and lines[4] != "| City 0 | 20 working days |"
    assert "Office: City 20; Annual leave: 40 working days" in inside[0].text  # the flat text, as before
    assert "|" not in inside[0].text.replace("## Entitlements", "")


def test_every_chunk_markdown_is_made_of_the_documents_own_lines_and_covers_its_text():
    source_lines = set(POLICY.split("\n"))
    for chunk in _chunks(max_words=40, overlap_words=8):
        assert chunk.markdown
        assert set(chunk.markdown.split("\n")) <= source_lines
        for cell in ("City 7 ", "City 33 ", "wrapped onto", "Underlined heading"):
            if cell.strip() in chunk.text:
                assert cell.strip() in chunk.markdown


def test_markdown_leaves_the_text_the_reader_reads_unchanged():
    units = source_sentences(POLICY)
    assert [u.text for u in units] == split_sentences(POLICY)
    heading = next(u for u in units if u.text == "## Underlined heading")
    assert POLICY[heading.span[0]:heading.span[1]] == "Underlined heading\n=================="
    item = next(u for u in units if u.text.startswith("- first item"))
    assert POLICY[item.span[0]:item.span[1]] == "- first item\n  wrapped onto a second line"


def test_a_passage_of_one_endless_line_has_no_markdown_but_keeps_its_text():
    chunks = _chunks("word" + " word" * 5000)
    assert chunks and all(c.text and c.markdown == "" for c in chunks)
    assert all(len(c.markdown) <= MAX_MARKDOWN_CHARS for c in _chunks())


def test_paginated_documents_keep_each_pages_own_lines():
    pages = ("# One\n\nFirst page.", "## Two\n\n| a | b |\n|---|---|\n| 1 | 2 |")
    document = Document("p", "Pages", "", ("x",), pages=pages)
    chunks = chunk_document(document)
    assert [(c.page, c.markdown) for c in chunks] == [
        (1, "# One\n\nFirst page."), (2, "## Two\n\n| a | b |\n|---|---|\n| 1 | 2 |")]


def _policy_jsonl(folder) -> Path:
    docs = folder / "docs.jsonl"
    docs.write_text(json.dumps({"id": "leave", "title": "Leave", "acl": ["all-staff"], "text": POLICY}) + "\n")
    return docs


@pytest.fixture
def policy_index(tmp_path, encoder):
    docs = _policy_jsonl(tmp_path)
    index = SqliteIndex(tmp_path / "idx", create=True)
    ingest(index, encoder, load_jsonl(docs), show_progress=False)
    yield index, docs
    index.close()


def test_the_index_stores_and_loads_each_chunks_markdown(empty_backend, encoder, tmp_path):
    ingest(empty_backend, encoder, load_jsonl(_policy_jsonl(tmp_path)), show_progress=False)
    loaded = empty_backend.load_chunks(["leave#0", "leave#1"], AccessFilter(frozenset({"all-staff"})))
    assert "| Office | Annual leave |" in loaded["leave#0"].markdown
    # the title is 'Leave', so the '# Leave Policy 2026' heading is a section of its own, in text and markdown
    assert loaded["leave#1"].text.startswith("# Leave Policy 2026\n## Entitlements\nOffice: City")
    assert loaded["leave#1"].markdown.startswith(
        "# Leave Policy 2026\n\n## Entitlements\n\n| Office | Annual leave |\n|---|---|\n| City")
    assert empty_backend.load_chunks(["leave#0"], AccessFilter(frozenset({"hr"}))) == {}


def test_an_index_from_before_markdown_is_upgraded_in_place_and_its_rows_show_flat(policy_index, tmp_path, encoder):
    index, docs = policy_index
    index.close()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")  # as schema version 3 wrote it: no markdown column
    db.execute("ALTER TABLE chunks DROP COLUMN markdown")
    db.execute("ALTER TABLE chunks DROP COLUMN document_date")  # added by version 5
    db.execute("ALTER TABLE chunks DROP COLUMN units")  # added by version 6
    db.execute("UPDATE meta SET value='3' WHERE key='schema_version'")
    db.commit()
    db.close()
    index = SqliteIndex(tmp_path / "idx")
    try:
        loaded = index.load_chunks(["leave#0"], AccessFilter(frozenset({"all-staff"})))
        assert loaded["leave#0"].markdown == "" and "Office: City 0" in loaded["leave#0"].text
        again = ingest(index, encoder, load_jsonl(docs), show_progress=False)
        assert again.chunks_written == 0  # nothing re-embedded: old rows stay flat until their document changes
    finally:
        index.close()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")
    assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    db.close()


def test_a_demo_index_built_before_chunks_kept_markdown_is_written_again(tmp_path, encoder):
    from boundloop.retrieval.demo import STAMP, ensure_demo_index

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "leave.md").write_text("---\nacl: [all-staff]\n---\n" + POLICY)
    folder = ensure_demo_index(encoder, tmp_path / "demo", corpus)
    stamp = (folder / STAMP).read_text()
    db = sqlite3.connect(folder / "index.db")  # as the demo index was before: flat rows, the older stamp
    db.execute("UPDATE chunks SET markdown = ''")
    db.commit()
    db.close()
    (folder / STAMP).write_text(stamp.rsplit("|", 1)[0])
    ensure_demo_index(encoder, folder, corpus)
    index = SqliteIndex(folder)
    try:
        assert "| Office | Annual leave |" in index.load_chunks(["leave#0"], AccessFilter(frozenset({"all-staff"})))[
            "leave#0"].markdown
    finally:
        index.close()
