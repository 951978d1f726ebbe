"""`BOUNDLOOP_MAX_DOCUMENTS`: the most distinct documents a run may read, end to end through the CLI.

A folder of one-fact documents, a limit of 2: the run reads two documents, closes with its best grounded answer,
incomplete, and says why in `ask --json`, the trace and `stats`; the eval gate counts a run past it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundloop.cli.main import main
from boundloop.domain.usage import Usage
from boundloop.evals.metrics import budget_problems
from boundloop.evals.records import RunRecord
from boundloop.policies.budget import BudgetLimits

pytestmark = pytest.mark.slow
CITIES = ("Lisbon", "Toronto", "Berlin", "Madrid", "Oslo", "Dublin", "Vienna", "Prague")
QUESTION = "How many desks does each office have?"


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


@pytest.fixture(scope="module")
def workspace(tmp_path_factory, real_encoder) -> list[Path]:
    """An index of eight one-fact documents that user `ann` may read, and its directory."""
    root = tmp_path_factory.mktemp("documents-limit")
    folder = root / "offices"
    folder.mkdir()
    for n, city in enumerate(CITIES):
        (folder / f"{city.lower()}.md").write_text(
            f"---\nacl: [staff]\n---\n# {city} office\n\nThe {city} office has {20 + n} desks.\n")
    (root / "directory.yaml").write_text("users:\n  ann: {groups: [staff]}\n")
    assert main(["ingest", str(folder), "--index", str(root / "idx")]) == 0
    return ["--index", root / "idx", "--directory", root / "directory.yaml"]


def test_a_run_reaching_the_documents_limit_closes_incomplete_with_its_reason(workspace, capsys, monkeypatch):
    code, out = run(capsys, "ask", QUESTION, "--user", "ann", "--json", *workspace)
    unlimited = json.loads(out)
    assert code == 0 and unlimited["usage"]["documents"] > 2  # the question reads more than two documents

    monkeypatch.setenv("BOUNDLOOP_MAX_DOCUMENTS", "2")
    code, out = run(capsys, "ask", QUESTION, "--user", "ann", "--json", *workspace)
    result = json.loads(out)
    assert code == 0
    assert result["stop_reason"] == "documents" and result["complete"] is False
    assert result["usage"]["documents"] == 2
    assert result["status"] == "answered"  # the best grounded answer from what it read
    assert len({c["doc_id"] for c in result["citations"]}) <= 2

    code, out = run(capsys, "trace", result["run_id"], "--json", *workspace)
    spans = json.loads(out)["spans"]
    assert any(s["node"] == "retrieve" and "documents limit reached" in (s["reason"] or "") for s in spans)
    assert spans[-1]["usage"]["documents"] == 2

    code, out = run(capsys, "trace", result["run_id"], *workspace)
    assert "docs" in out.splitlines()[0].split()

    code, out = run(capsys, "stats", "--json", *workspace)
    shares = json.loads(out)["limit_hit_share"]
    assert shares["documents"] == 0.5  # one of the two runs above

    code, out = run(capsys, "ask", QUESTION, "--user", "ann", *workspace)
    assert "INCOMPLETE: documents limit reached" in out and "2 documents" in out


def test_the_eval_gate_counts_a_run_past_the_documents_limit():
    limits = BudgetLimits(max_documents=2)
    within = RunRecord(status="answered", answer="", usage=Usage(documents=2))
    over = RunRecord(status="answered", answer="", usage=Usage(documents=3))
    assert budget_problems(within, limits) == []
    assert budget_problems(over, limits) == ["documents 3 > 2"]
