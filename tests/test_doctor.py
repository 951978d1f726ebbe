"""`boundloop doctor`: every check passes on a healthy index, and each kind of disagreement is named."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from boundloop.cli.main import main
from boundloop.retrieval.sqlite_check import check_index_agrees, check_integrity


@pytest.fixture
def folder(index, tmp_path):
    index.close()
    return tmp_path / "index"


def test_a_healthy_index_and_run_store_pass(folder, capsys, monkeypatch, real_encoder):
    monkeypatch.delenv("BOUNDLOOP_CHECKPOINT_URL", raising=False)
    monkeypatch.delenv("BOUNDLOOP_STATE_DIR", raising=False)
    assert main(["doctor", "--index", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["ok"] * len(lines) and len(lines) == 5
    assert "full text and vectors agree" in lines[1] and "no runs yet" in lines[2] and "loads and encodes" in lines[3]
    assert lines[4].startswith("ok    encoder file: ")  # against its recorded digest (tests/test_encoder_digest.py)


@pytest.mark.parametrize("damage, found", [
    ("DELETE FROM chunks_fts_docsize WHERE id IN (SELECT id FROM chunks LIMIT 2)", "full-text rows"),
    ("UPDATE chunks SET vector = x'00' WHERE id = (SELECT min(id) FROM chunks)", "1 vectors of the wrong size"),
])
def test_chunks_full_text_and_vectors_must_agree(folder, damage, found):
    with closing(sqlite3.connect(folder / "index.db")) as db:
        db.execute(damage)
        db.commit()
    assert check_integrity(folder / "index.db", "index", "rebuild").ok  # the pages are fine: only the content differs
    finding = check_index_agrees(folder / "index.db", "rebuild it")
    assert not finding.ok and found in finding.detail and finding.detail.endswith("rebuild it")


def test_postgres_schema_version_and_row_level_security(request, encoder, docs_jsonl):
    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.loaders import load_jsonl
    from boundloop.retrieval.postgres import PostgresIndex
    from boundloop.retrieval.postgres.doctor import check_postgres_index
    from tests.postgres_backend.databases import drop_index

    settings = request.getfixturevalue("pg_index_database")
    drop_index(settings)
    index = PostgresIndex(settings, create=True)
    try:
        ingest(index, encoder, load_jsonl(docs_jsonl), show_progress=False)
    finally:
        index.close()
    findings = check_postgres_index(settings.writer_url, "the test database")
    assert [f.ok for f in findings] == [True, True]
    import psycopg

    with psycopg.connect(settings.writer_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE boundloop.chunks NO FORCE ROW LEVEL SECURITY")
    findings = check_postgres_index(settings.writer_url, "the test database")
    assert not findings[1].ok and "not forced on chunks" in findings[1].detail
