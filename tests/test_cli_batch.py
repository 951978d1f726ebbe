"""`ask --batch` and `search --batch`: every line in the output, and exit code 1 when any line failed."""

from __future__ import annotations

import json

import pytest

from boundloop.cli.jsonl import run_batch
from boundloop.cli.main import main
from boundloop.policies.errors import BoundloopError


def _batch(tmp_path, *rows: object) -> str:
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(row if isinstance(row, str) else json.dumps(row) for row in rows) + "\n")
    return str(path)


def _answer(user: str, question: str) -> dict[str, object]:
    if user == "mallory":
        raise BoundloopError(f"unknown user {user!r}")
    return {"answer": question.upper()}


def test_a_batch_with_a_failed_line_exits_1_and_keeps_every_line(tmp_path, capsys):
    path = _batch(tmp_path, {"id": "a", "user": "bob", "question": "q"},
                  {"id": "b", "user": "mallory", "question": "q"}, "{oops")
    assert run_batch(path, None, _answer, desc="asking") == 1
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == ["a", "b", None] and rows[0]["answer"] == "Q"
    assert "unknown user 'mallory'" in rows[1]["error"] and "broken JSON" in rows[2]["error"]
    assert "2 of 3 batch line(s) failed" in err


def test_a_batch_where_every_line_failed_exits_1(tmp_path, capsys):
    path = _batch(tmp_path, {"id": "a", "user": "mallory", "question": "q"}, {"id": "b", "question": "q"})
    assert run_batch(path, str(tmp_path / "out.jsonl"), _answer, desc="asking") == 1
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [("error" in r) for r in rows] == [True, True]


def test_a_batch_where_every_line_succeeded_exits_0(tmp_path, capsys):
    path = _batch(tmp_path, {"id": "a", "user": "bob", "question": "q"}, {"id": "b", "user": "alice", "question": "r"})
    assert run_batch(path, None, _answer, desc="asking") == 0
    assert "failed" not in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("command", ["ask", "search"])
def test_the_commands_exit_1_when_a_line_failed(command, tmp_path, capsys, demo_cache):
    good = {"id": "1", "user": "alice", "question": "How many days of annual leave do Lisbon employees get?"}
    path = _batch(tmp_path, good, {"id": "2", "user": "mallory", "question": "anything"})
    assert main([command, "--batch", path]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in rows] == ["1", "2"] and "error" not in rows[0]
    assert "unknown user 'mallory'" in rows[1]["error"]
    assert main([command, "--batch", _batch(tmp_path, good)]) == 0
