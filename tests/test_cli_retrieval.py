"""The ingest and search commands end to end, with the real encoder."""

import json
import os
import subprocess
import sys

import pytest

from boundloop.cli.main import main

pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", "postgres"])
def env(request, tmp_path, monkeypatch, directory_file):
    """The same commands against an index folder and against a PostgreSQL database (writer and reader URLs)."""
    if request.param == "sqlite":
        monkeypatch.setenv("BOUNDLOOP_INDEX", str(tmp_path / "idx"))
    else:
        from tests.postgres_backend.databases import drop_index

        settings = request.getfixturevalue("pg_index_database")
        drop_index(settings)
        monkeypatch.setenv("BOUNDLOOP_INDEX", settings.writer_url)
        monkeypatch.setenv("BOUNDLOOP_PG_READER_URL", settings.reader_url)
    monkeypatch.setenv("BOUNDLOOP_DIRECTORY", str(directory_file))
    return tmp_path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ingest_then_search_as_json(env, capsys, docs_jsonl, real_encoder):
    code, out, err = run(capsys, "ingest", str(docs_jsonl))
    assert code == 0 and "6 added" in out and "1 documents have no ACL" in out
    code, out, _ = run(capsys, "search", "salary bands engineers", "--user", "bob", "--json", "--k", "3")
    payload = json.loads(out)
    assert payload["query"] == "salary bands engineers" and payload["user"] == "bob"
    assert len(payload["results"]) == 3
    for hit in payload["results"]:
        assert {"doc_id", "chunk_id", "title", "text", "score", "bm25_rank", "dense_rank"} <= hit.keys()
        assert hit["doc_id"] not in {"salaries", "reorg", "orphan"}
    code, out, _ = run(capsys, "search", "salary bands engineers", "--user", "alice", "--json", "--k", "1")
    assert json.loads(out)["results"][0]["doc_id"] == "salaries"


def test_search_by_title_is_trimmed_too(env, capsys, docs_jsonl, real_encoder):
    run(capsys, "ingest", str(docs_jsonl))
    query = "Salary bands | Lisbon seating chart"
    code, out, _ = run(capsys, "search", query, "--user", "bob", "--mode", "title", "--json")
    assert code == 0 and [h["doc_id"] for h in json.loads(out)["results"]] == ["seating"]
    code, out, _ = run(capsys, "search", query, "--user", "alice", "--mode", "title", "--json")
    assert [h["doc_id"] for h in json.loads(out)["results"]] == ["salaries", "seating"]


def test_batch_search_is_trimmed_per_line(env, capsys, docs_jsonl, tmp_path, real_encoder):
    run(capsys, "ingest", str(docs_jsonl))
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        "\n".join(
            [
                json.dumps({"id": "1", "user": "bob", "question": "salary bands CANARY"}),
                json.dumps({"id": "2", "user": "alice", "question": "salary bands CANARY"}),
                json.dumps({"id": "3", "user": "mallory", "question": "anything"}),
                "{oops",
                json.dumps({"id": "5", "user": "frank", "question": "expense"}),
            ]
        )
    )
    out_file = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "search", "--batch", str(batch), "--out", str(out_file))
    assert code == 1 and "2 of 5 batch line(s) failed" in err  # exit 1: any line failed
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["1", "2", "3", None, "5"]
    assert rows[3]["line"] == 4
    assert all("CANARY" not in h["text"] for h in rows[0]["results"])
    assert any("CANARY-HR" in h["text"] for h in rows[1]["results"])
    assert "unknown user 'mallory'" in rows[2]["error"] and "results" not in rows[2]
    assert "broken JSON" in rows[3]["error"]
    assert rows[4]["results"] == []


def test_delete_and_idempotent_reingest(env, capsys, docs_jsonl, real_encoder):
    run(capsys, "ingest", str(docs_jsonl))
    code, out, _ = run(capsys, "ingest", str(docs_jsonl))
    assert "0 added, 0 updated, 6 unchanged" in out
    code, out, _ = run(capsys, "ingest", "--delete", "salaries", "--json")
    assert json.loads(out)["deleted"] == 1
    code, out, _ = run(capsys, "search", "salary bands", "--user", "alice", "--json")
    assert all(h["doc_id"] != "salaries" for h in json.loads(out)["results"])


@pytest.mark.parametrize(
    "argv, message",
    [
        (["search", "q", "--user", "mallory"], "unknown user 'mallory'"),
        (["search", "q"], "search needs --user NAME"),
        (["search", "", "--user", "bob"], "the query is empty"),
        (["search"], "search needs a QUERY"),
        (["search", "q", "--user", "bob", "--k", "0"], "--k must be between"),
        (["ingest", "/nonexistent/file.jsonl"], "no such file"),
        (["ingest"], "nothing to do"),
    ],
)
def test_bad_input_gets_a_clear_error(env, capsys, docs_jsonl, argv, message, real_encoder):
    run(capsys, "ingest", str(docs_jsonl))
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_no_traceback_from_a_real_process(tmp_path):
    environ = dict(os.environ, BOUNDLOOP_INDEX=str(tmp_path / "missing"), BOUNDLOOP_DIRECTORY=str(tmp_path / "d.json"))
    result = subprocess.run(
        [sys.executable, "-m", "boundloop", "search", "x", "--user", "bob"],
        capture_output=True, text=True, env=environ, timeout=60,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "boundloop: error:" in result.stderr


def test_demo_corpus_works_with_no_configuration(capsys, monkeypatch, demo_cache):
    monkeypatch.delenv("BOUNDLOOP_INDEX", raising=False)
    monkeypatch.delenv("BOUNDLOOP_DIRECTORY", raising=False)
    code, out, _ = run(capsys, "search", "salary bands", "--user", "bob", "--json")
    assert code == 0
    assert all("CANARY" not in h["text"] for h in json.loads(out)["results"])
    code, out, _ = run(capsys, "search", "salary bands", "--user", "alice", "--json", "--k", "3")
    assert any(h["doc_id"] == "hr-salary-bands" for h in json.loads(out)["results"])
