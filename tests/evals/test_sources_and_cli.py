"""Loading for `boundloop eval`, the demo loader, the gate's rules, and the command's errors and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundloop.cli.main import main
from boundloop.evals.datasets import DatasetError
from boundloop.evals.demo_questions import load as load_demo
from boundloop.evals.gate_rules import GateEval, failures, load_rules
from boundloop.evals.sources import load_eval_dataset
from boundloop.policies.errors import BoundloopError
from tests.evals.synthetic import demo_folder, hotpotqa_file

REPO = Path(__file__).resolve().parents[2]


def test_2wikimultihopqa_rows_without_context_are_skipped_and_said_so(tmp_path: Path) -> None:
    row = {"_id": "w1", "type": "comparison", "question": "Q?", "answer": "A",
           "context": [["T", ["Text."]]], "supporting_facts": [["T", 0]]}
    path = tmp_path / "wiki.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [row, {**row, "_id": "w2", "context": None}, row]) + "\n")
    dataset, notes = load_eval_dataset("2wikimultihopqa", path, None)
    assert len(dataset.questions) == 2
    assert notes == ["1 rows without context (paragraphs) skipped; 2 asked"]


def test_user_is_only_for_datasets_asked_as_a_chosen_user(tmp_path: Path) -> None:
    with pytest.raises(BoundloopError, match="--user applies to contoso"):
        load_eval_dataset("hotpotqa", hotpotqa_file(tmp_path), None, user="hr")


def test_demo_loader_keeps_acls_askers_and_forbidden_documents(tmp_path: Path) -> None:
    dataset = load_demo(demo_folder(tmp_path), None)
    assert dataset.passages["salary-bands"].acl == ("hr",)
    assert dataset.directory == {"alice": ["all-staff", "hr"], "bob": ["all-staff"]}
    access = dataset.questions[1]
    assert (access.user, access.answerable, access.forbidden_doc_ids) == ("bob", False, ("salary-bands",))


def test_the_bundled_demo_questions_load() -> None:
    dataset = load_demo(REPO / "demo", None)
    assert len(dataset.questions) == 40
    assert sum(bool(q.forbidden_doc_ids) for q in dataset.questions) == 5


def test_demo_loader_rejects_an_unknown_asker(tmp_path: Path) -> None:
    folder = demo_folder(tmp_path)
    (folder / "questions.jsonl").write_text(json.dumps({"id": "x", "user": "mallory", "question": "Q?",
                                                        "class": "lookup", "expect": "answered"}) + "\n")
    with pytest.raises(DatasetError, match="mallory"):
        load_demo(folder, None)


@pytest.mark.parametrize(("metrics", "problems"), [
    ({"support_recall": 0.8, "leak_rate": 0.0}, 0),
    ({"support_recall": 0.6, "leak_rate": 0.0}, 1),
    ({"support_recall": 0.8, "leak_rate": 0.01}, 1),
    ({"leak_rate": 0.0}, 1),  # a metric the eval did not produce breaks its bound
])
def test_gate_bounds(metrics: dict, problems: int) -> None:
    rule = GateEval("g", "hotpotqa", "x", minimum={"support_recall": 0.7}, maximum={"leak_rate": 0.0})
    assert len(failures(metrics, rule)) == problems


def test_the_committed_thresholds_load_and_guard_leaks() -> None:
    rules = load_rules(REPO / "evals" / "thresholds.json")
    assert {r.dataset for r in rules} == {"hotpotqa", "demo", "probes"}
    assert all(r.maximum.get("leak_rate") == 0 for r in rules if r.dataset != "probes")
    assert next(r for r in rules if r.dataset == "probes").maximum == {"leaks": 0, "planted_shipped": 0}
    assert next(r for r in rules if r.dataset == "demo").maximum["access_answered"] == 0


def test_upload_without_an_api_key_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    assert main(["eval", "hotpotqa", str(hotpotqa_file(tmp_path)), "--upload"]) == 2
    assert "LANGSMITH_API_KEY" in capsys.readouterr().err


def test_a_missing_dataset_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "hotpotqa", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_json_with_the_real_encoder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    code = main(["eval", "hotpotqa", str(hotpotqa_file(tmp_path)), "--limit", "2", "--json", "--out", str(out),
                 "--cache-dir", str(tmp_path / "cache"), "--workers", "1"])
    captured = capsys.readouterr()
    assert code == 0
    shape = json.loads(captured.out)
    assert shape["n"] == 2 and set(shape["systems"]) == {"loop", "one_hop", "untargeted", "one_hop_same_k"}
    assert {"report.md", "report.html", "results.json"} <= {p.name for p in out.iterdir()}
