"""The per-document size limit (`BOUNDLOOP_MAX_DOCUMENT_BYTES`): an oversized JSONL line or file is refused by name,
found before it is read whole (issue 31: a 50 MB file was taken in and ingested for 23 minutes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundloop.cli.main import main
from boundloop.policies.settings import SettingError, Settings
from boundloop.retrieval import loaders
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.loaders import load_folder, load_jsonl
from tests.conftest import HashEncoder


def _row(doc_id: str, text: str) -> str:
    return json.dumps({"id": doc_id, "title": doc_id, "acl": ["g"], "text": text})


def _problems(items) -> list[LoadProblem]:
    return [i for i in items if isinstance(i, LoadProblem)]


def _docs(items) -> dict[str, Document]:
    return {i.doc_id: i for i in items if isinstance(i, Document)}


@pytest.fixture
def limit_1000(monkeypatch):
    monkeypatch.setenv("BOUNDLOOP_MAX_DOCUMENT_BYTES", "1000")


def test_an_oversized_jsonl_line_is_a_bad_line_named_by_its_place(tmp_path, limit_1000):
    path = tmp_path / "d.jsonl"
    path.write_text("\n".join([_row("a", "small"), _row("big", "word " * 400), _row("c", "small too")]) + "\n")
    items = list(load_jsonl(path))
    assert set(_docs(items)) == {"a", "c"}  # the lines after it are read as before
    [problem] = _problems(items)
    size = len(_row("big", "word " * 400).encode())
    assert problem.location == f"{path}:2"
    assert problem.message == (f"the line is {size:,} bytes, over the limit of 1,000 for one document "
                               "(BOUNDLOOP_MAX_DOCUMENT_BYTES)")


def test_an_oversized_last_line_without_a_line_break_is_refused_too(tmp_path, limit_1000):
    path = tmp_path / "d.jsonl"
    path.write_bytes((_row("a", "small") + "\r\n" + _row("big", "x" * 3000)).encode())
    items = list(load_jsonl(path))
    assert set(_docs(items)) == {"a"} and [p.location for p in _problems(items)] == [f"{path}:2"]


def test_a_line_of_exactly_the_limit_is_taken(tmp_path, monkeypatch):
    line = _row("a", "y" * 500)
    monkeypatch.setenv("BOUNDLOOP_MAX_DOCUMENT_BYTES", str(len(line.encode())))
    path = tmp_path / "d.jsonl"
    path.write_text(line + "\n" + line.replace('"a"', '"b"') + "x\n")  # the second is one byte over (and broken)
    items = list(load_jsonl(path))
    assert set(_docs(items)) == {"a"} and "over the limit" in _problems(items)[0].message


def test_the_default_limit_is_20_mb(tmp_path, monkeypatch):
    monkeypatch.delenv("BOUNDLOOP_MAX_DOCUMENT_BYTES", raising=False)
    assert Settings.model_fields["max_document_bytes"].default == 20_000_000
    head = '{"id": "huge", "acl": ["g"], "text": "'
    path = tmp_path / "d.jsonl"
    with path.open("w") as out:
        out.write(head + "z" * (20_000_000 + 1 - len(head) - 2) + '"}\n')
    [problem] = list(load_jsonl(path))
    assert isinstance(problem, LoadProblem) and "20,000,001 bytes, over the limit of 20,000,000" in problem.message


def test_an_oversized_line_is_never_held_whole(tmp_path, limit_1000, monkeypatch):
    path = tmp_path / "d.jsonl"
    path.write_text(_row("big", "w" * 50_000) + "\n" + _row("a", "small") + "\n")
    reads: list[int] = []
    original = loaders._lines

    def watched(handle, limit):
        real_readline = handle.readline

        def readline(size=-1):
            line = real_readline(size)
            reads.append(len(line))
            return line

        handle.readline = readline
        return original(handle, limit)

    monkeypatch.setattr(loaders, "READ_STEP", 4096)
    monkeypatch.setattr(loaders, "_lines", watched)
    items = list(load_jsonl(path))
    assert set(_docs(items)) == {"a"} and max(reads) <= 4096


def test_a_bad_setting_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("BOUNDLOOP_MAX_DOCUMENT_BYTES", "20MB")
    (tmp_path / "a.md").write_text("---\nacl: [g]\n---\nText.\n")
    with pytest.raises(SettingError, match="BOUNDLOOP_MAX_DOCUMENT_BYTES='20MB' must be a whole number, at least 1"):
        load_folder(tmp_path)
    with pytest.raises(SettingError, match="at least 1"):
        load_jsonl(tmp_path / "missing.jsonl")  # before the file is even opened


def test_an_oversized_file_in_a_folder_is_skipped_by_name_without_being_read(tmp_path, limit_1000, monkeypatch):
    folder = tmp_path / "wiki"
    folder.mkdir()
    (folder / "small.md").write_text("---\nacl: [g]\n---\n# Small\n\nFits.\n")
    with (folder / "huge.md").open("wb") as sparse:  # 5 GB on paper, no disk: reading it would take minutes
        sparse.truncate(5_000_000_000)
    opened: list[str] = []
    real_read_text = Path.read_text

    def read_text(self, *args, **kwargs):
        opened.append(self.name)
        return real_read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    items = list(load_folder(folder))
    assert set(_docs(items)) == {"small"} and opened == ["small.md"]
    [problem] = _problems(items)
    assert problem.location == str(folder / "huge.md") and problem.source == "huge.md"
    assert "the file is 5,000,000,000 bytes, over the limit of 1,000" in problem.message


# --- the command line: JSONL refused whole, folders skip the file ---------------------------------------------------


@pytest.fixture
def hash_encoder(monkeypatch):
    monkeypatch.setattr("boundloop.cli.ingest_command.build_embeddings", HashEncoder)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_refuses_a_jsonl_file_with_an_oversized_line_and_writes_nothing(tmp_path, capsys, limit_1000,
                                                                            hash_encoder):
    path = tmp_path / "d.jsonl"
    path.write_text(_row("a", "small") + "\n" + _row("big", "word " * 400) + "\n")
    code, _, err = run(capsys, "ingest", path, "--index", tmp_path / "idx")
    assert code == 2 and not (tmp_path / "idx").exists()
    assert "1 bad line(s)" in err and "nothing was written" in err
    assert f"  {path}:2: the line is 2,0" in err and "over the limit of 1,000 for one document" in err


def test_cli_folder_ingest_skips_the_oversized_file_and_ingests_the_rest(tmp_path, capsys, limit_1000,
                                                                         hash_encoder):
    folder = tmp_path / "wiki"
    folder.mkdir()
    (folder / "small.md").write_text("---\nacl: [g]\n---\n# Small\n\nFits.\n")
    (folder / "big.md").write_text("---\nacl: [g]\n---\n# Big\n\n" + "Too long. " * 200)
    code, out, err = run(capsys, "ingest", folder, "--index", tmp_path / "idx")
    assert code == 0 and "1 added" in out
    assert f"skipped {folder / 'big.md'}: the file is 2,0" in err and "BOUNDLOOP_MAX_DOCUMENT_BYTES" in err
