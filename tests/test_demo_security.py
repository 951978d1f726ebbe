"""Every demo question, asked as its user through the real encoder and CLI stack: nothing leaks."""

import json
import re
from pathlib import Path

import pytest
import yaml

from boundloop.cli.main import main
from boundloop.retrieval.config import DEMO_ROOT
from boundloop.retrieval.loaders import load_folder

pytestmark = pytest.mark.slow

QUESTIONS = [json.loads(line) for line in (DEMO_ROOT / "questions.jsonl").read_text().splitlines() if line.strip()]
USERS = yaml.safe_load((DEMO_ROOT / "directory.yaml").read_text())["users"]
DOC_ACL = {d.doc_id: set(d.acl) for d in load_folder(DEMO_ROOT / "corpus") if hasattr(d, "acl")}
CANARY = re.compile(r"CANARY-[A-Z]+-\d{4}")


@pytest.fixture(scope="module")
def batch_results(tmp_path_factory, demo_cache):
    folder = tmp_path_factory.mktemp("demo")
    batch = folder / "batch.jsonl"
    batch.write_text("\n".join(json.dumps({"id": q["id"], "user": q["user"], "question": q["question"]})
                               for q in QUESTIONS))
    out = folder / "out.jsonl"
    assert main(["ask", "--batch", str(batch), "--out", str(out)]) == 0
    return {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}


def visible(user: str, doc_id: str) -> bool:
    return bool(DOC_ACL[doc_id] & set(USERS[user]["groups"]))


@pytest.mark.parametrize("question", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_no_leak_for_any_demo_question(batch_results, question):
    result = batch_results[question["id"]]
    assert "error" not in result
    user = question["user"]
    shown = [c["doc_id"] for c in result["citations"]] + [r["doc_id"] for r in result["fallback_results"]]
    assert all(visible(user, d) for d in shown), shown
    for canary in CANARY.findall(json.dumps(result)):
        owner = next(d for d in DOC_ACL if canary in (DEMO_ROOT / "corpus").joinpath(d + ".md").read_text())
        assert visible(user, owner)
    assert "INJECTION-MARKER" not in result["answer"] and "ACCESS GRANTED" not in result["answer"]


def test_access_questions_are_not_answered(batch_results):
    access = [q for q in QUESTIONS if q.get("forbidden_doc_ids")]
    assert len(access) >= 5
    for q in access:
        result = batch_results[q["id"]]
        assert result["status"] != "answered", q["id"]
        assert not set(q["forbidden_doc_ids"]) & {c["doc_id"] for c in result["citations"]}


def test_batch_rows_carry_id_and_user(batch_results):
    assert all(batch_results[q["id"]]["user"] == q["user"] for q in QUESTIONS)


def test_trace_and_stats_commands(batch_results, capsys):
    run_id = batch_results["q02"]["run_id"]
    assert main(["trace", run_id, "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)
    assert trace["spans"][0]["node"] == "governor" and trace["spans"][-2]["node"] == "respond"
    assert main(["trace", run_id]) == 0
    assert "respond" in capsys.readouterr().out
    assert main(["trace", "no-such-run"]) == 2
    assert main(["stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["runs"] >= len(QUESTIONS) and "multi_hop" in stats["avg_hops_by_class"]


def test_ask_json_shape(capsys, demo_cache):
    assert main(["ask", "How many days of annual leave do Lisbon employees get?", "--user", "alice", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"run_id", "status", "complete", "stop_reason", "query_class", "answer", "claims", "citations",
            "usage"} <= result.keys()
    assert set(result["usage"]) == {"hops", "tokens", "retrieval_calls", "elapsed_ms", "documents"}
    assert result["status"] == "answered" and "25 working days" in result["answer"]
    for claim in result["claims"]:
        assert claim["citations"] and set(claim["citations"]) <= {c["chunk_id"] for c in result["citations"]}
    assert all(f"[{c['marker']}]" in result["answer"] for c in result["citations"])


def test_ask_human_output(capsys, demo_cache):
    assert main(["ask", "How many days of annual leave do Lisbon employees get?", "--user", "alice"]) == 0
    out = capsys.readouterr().out
    assert "Sources:" in out and "answered" in out and "hops" in out


def test_ask_bad_input(capsys, demo_cache):
    assert main(["ask", "   ", "--user", "alice"]) == 2
    assert "question" in capsys.readouterr().err
    assert main(["ask", "x" * 4001, "--user", "alice"]) == 2
    assert "4000 characters" in capsys.readouterr().err
    assert main(["ask", "hello?", "--user", "mallory"]) == 2
    assert Path  # keep import used
