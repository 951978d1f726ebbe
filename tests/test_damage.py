"""Damaged files: a damaged run store never blocks answering, a damaged index is one clear line."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from boundloop.runstore.sqlite import SqliteRunStore
from tests.loop_fixtures import make_runner

QUESTION = "Who is the Head of Finance?"


def _overwrite(path, start_page: int = 0) -> None:
    """Overwrite the file's pages from `start_page` on, as a disk or a careless copy would."""
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.seek(start_page * 4096)
        handle.write(b"\xde\xad\xbe\xef" * ((size - start_page * 4096) // 4))


def test_a_damaged_run_store_is_moved_aside_and_a_new_one_made(tmp_path, index, encoder, resolver, caplog):
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path)
    runner.ask(QUESTION, "bob")
    runner.store.close()
    for start_page in (1, 0):  # the tables' pages, then the whole file ("file is not a database")
        _overwrite(tmp_path / "runs.db", start_page)
        with caplog.at_level(logging.WARNING):
            runner = make_runner(index, encoder, resolver, tmp_path=tmp_path)
        assert "is damaged" in caplog.text and "moved it to" in caplog.text
        result = runner.ask(QUESTION, "bob")
        assert result.status == "answered" and runner.trace(result.run_id)  # recorded in the new store
        runner.store.close()
        caplog.clear()
    assert len(list(tmp_path.glob("runs.db.damaged-*"))) >= 1


def test_damage_found_while_in_use_leaves_runs_unrecorded_and_the_next_open_replaces_the_file(
        tmp_path, index, encoder, resolver, monkeypatch, caplog):
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path)
    store = runner.store

    def malformed(self, run_id, owner, question, conversation=None):  # what a damaged page of the registry reads as
        with self._translated():
            raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(SqliteRunStore, "start", malformed)
    with caplog.at_level(logging.WARNING):
        first, second = runner.ask(QUESTION, "bob"), runner.ask(QUESTION, "bob")
    assert first.status == second.status == "answered"  # answered, unrecorded
    assert store.damaged and "runs go unrecorded" in caplog.text
    assert (tmp_path / "runs.db.damaged").exists()
    monkeypatch.undo()
    store.close()
    reopened = SqliteRunStore(tmp_path / "runs.db")
    try:
        assert not reopened.damaged and list(tmp_path.glob("runs.db.damaged-*"))
        assert not (tmp_path / "runs.db.damaged").exists()
    finally:
        reopened.close()


@pytest.fixture
def damaged_index(tmp_path, monkeypatch, directory_file, docs_jsonl, real_encoder, capsys):
    """An index folder whose pages past the first were overwritten (the file still opens)."""
    from boundloop.cli.main import main

    folder = tmp_path / "idx"
    monkeypatch.setenv("BOUNDLOOP_INDEX", str(folder))
    monkeypatch.setenv("BOUNDLOOP_DIRECTORY", str(directory_file))
    assert main(["ingest", str(docs_jsonl)]) == 0
    capsys.readouterr()
    _overwrite(folder / "index.db", start_page=2)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["search", "expense approval", "--user", "bob"],
    ["ask", "Who approves expense claims above EUR 5,000?", "--user", "bob"],
    ["ingest", "--delete", "expense"],
    ["doctor"],
])
def test_a_damaged_index_is_one_clear_line_and_exit_2(damaged_index, argv, capsys, docs_jsonl):
    from boundloop.cli.main import main

    before = (damaged_index / "index.db").read_bytes()
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = (err if argv[0] != "doctor" else out).strip().splitlines()
    message = next(line for line in lines if "index.db" in line)
    assert "damaged" in message and "boundloop ingest" in message and "Traceback" not in err
    if argv[0] != "doctor":
        assert len(err.strip().splitlines()) == 1 and err.startswith("boundloop: error: the index ")
    assert (damaged_index / "index.db").read_bytes() == before  # nothing was written


@pytest.mark.slow
def test_ingest_refuses_to_write_into_a_damaged_index(damaged_index, capsys, docs_jsonl):
    from boundloop.cli.main import main

    assert main(["ingest", str(docs_jsonl)]) == 2
    assert "damaged" in capsys.readouterr().err


def test_a_damaged_encoder_file_is_one_clear_line(tmp_path, monkeypatch, capsys):
    from boundloop.cli.main import main
    from boundloop.retrieval.embeddings import build_embeddings

    models = tmp_path / "models"
    models.mkdir()
    (models / "all-MiniLM-L6-v2.int8.onnx").write_bytes(b"\xff" * 4096)  # a private cache: the shared model is safe
    monkeypatch.setenv("BOUNDLOOP_CACHE", str(tmp_path))
    build_embeddings.cache_clear()
    try:
        assert main(["doctor", "--index", str(tmp_path / "none")]) == 2
        out = capsys.readouterr().out
        assert "FAIL  encoder: the encoder model" in out and "is damaged (InvalidProtobuf): delete it" in out
    finally:
        build_embeddings.cache_clear()
