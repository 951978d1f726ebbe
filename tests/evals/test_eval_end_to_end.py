"""A whole eval on synthetic data: every system runs, the reports and the JSON have their promised shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boundloop.evals import index_cache, suite
from boundloop.evals.aggregate import METRICS
from boundloop.evals.config import EvalConfig
from boundloop.evals.report_files import write_reports
from boundloop.evals.report_json import full, summary
from boundloop.evals.report_model import EvalReport
from boundloop.evals.sources import load_eval_dataset
from boundloop.evals.suite import run_eval
from boundloop.policies.entitlements import AccessFilter
from tests.conftest import HashEncoder
from tests.evals.synthetic import demo_folder, hotpotqa_file

RATES = {"answer_em", "answer_f1", "answer_recall", "support_recall", "support_precision", "citation_precision",
         "grounding_rate", "abstain_accuracy", "leak_rate", "limit_hit_rate"}


def evaluate(tmp_path: Path, dataset: str, path: Path, **options: Any) -> EvalReport:
    config = EvalConfig(dataset, str(path), cache_root=tmp_path / "cache", show_progress=False, **options)
    return run_eval(config, encoder=HashEncoder())


@pytest.fixture
def hotpot(tmp_path: Path) -> Path:
    return hotpotqa_file(tmp_path)


def test_pooled_eval_runs_every_system_and_prints_the_issue_shape(tmp_path: Path, hotpot: Path) -> None:
    report = evaluate(tmp_path, "hotpotqa", hotpot)
    shape = summary(report)
    assert list(shape) == ["dataset", "path", "n", "setting", "systems"]
    assert (shape["dataset"], shape["n"], shape["setting"]) == ("hotpotqa", 4, "pooled")
    assert list(shape["systems"]) == ["loop", "one_hop", "untargeted", "one_hop_same_k"]
    for name in ("loop", "one_hop", "untargeted"):
        metrics = shape["systems"][name]
        assert set(metrics) <= set(METRICS) and {"support_recall", "leak_rate", "p95_ms"} <= set(metrics)
        assert all(0.0 <= metrics[m] <= 1.0 for m in RATES & set(metrics)), metrics
        assert metrics["leak_rate"] == 0.0 and metrics["budget_violations"] == 0
    assert shape["systems"]["one_hop"]["avg_hops"] == 1.0
    assert set(shape["systems"]["one_hop_same_k"]) == {"support_recall", "support_precision", "avg_retrieval_calls"}
    json.dumps(full(report))  # the full results are plain JSON too
    assert [run.qid for run in report.systems["loop"].runs] == ["h1", "h2", "h3", "h4"]
    assert set(report.systems["loop"].by_type) == {"bridge", "comparison"}


def test_distractor_setting_gives_each_question_only_its_own_paragraphs(tmp_path: Path, hotpot: Path) -> None:
    report = evaluate(tmp_path, "hotpotqa", hotpot, setting="distractor")
    own = {q.qid: set(q.own_doc_ids) for q in load_eval_dataset("hotpotqa", hotpot, None)[0].questions}
    for system in ("loop", "one_hop", "untargeted"):
        for run in report.systems[system].runs:
            assert run.gold.user == f"q:{run.qid}"
            assert {e.doc_id for e in run.record.evidence} <= own[run.qid]
        assert report.systems[system].metrics["leak_rate"] == 0.0


def test_the_index_is_built_once_and_reused(tmp_path: Path, hotpot: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    evaluate(tmp_path, "hotpotqa", hotpot, systems=("one_hop",))
    built = [p for p in (tmp_path / "cache").iterdir() if not p.name.startswith(".")]
    assert len(built) == 1 and (built[0] / "complete").exists()

    def no_ingest(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the cached index should have been reused")

    monkeypatch.setattr(index_cache, "ingest", no_ingest)
    report = evaluate(tmp_path, "hotpotqa", hotpot, systems=("one_hop",), setting="distractor")
    assert report.systems["one_hop"].metrics["n"] == 4


def test_reports_are_written_with_embedded_figures(tmp_path: Path, hotpot: Path) -> None:
    report = evaluate(tmp_path, "hotpotqa", hotpot)
    folder = write_reports(report, tmp_path / "out")
    markdown = (folder / "report.md").read_text()
    assert "| support_recall |" in markdown and "## By question type" in markdown
    html = (folder / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 4 and "<script" not in html
    results = json.loads((folder / "results.json").read_text())
    assert len(results["runs"]["loop"]) == 4 and results["by_type"]["loop"]["comparison"]["n"] == 1


def test_access_questions_are_not_answered_and_nothing_leaks(tmp_path: Path) -> None:
    report = evaluate(tmp_path, "demo", demo_folder(tmp_path / "demo"))
    for system in ("loop", "one_hop", "untargeted"):
        runs = {run.qid: run for run in report.systems[system].runs}
        assert runs["d2"].record.status != "answered"
        assert "salary-bands" not in {e.doc_id for e in runs["d2"].record.evidence}
        assert report.systems[system].metrics["leak_rate"] == 0.0


class IgnoresTheFilter:
    """A broken backend that searches everything, whatever the user may see: the leak the eval must catch."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.everything = AccessFilter(frozenset({"all-staff", "hr"}))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def keyword_candidates(self, query: str, access: AccessFilter, limit: int, deadline: float | None = None) -> Any:
        return self.inner.keyword_candidates(query, self.everything, limit, deadline)

    def dense_candidates(self, vector: Any, access: AccessFilter, limit: int) -> Any:
        return self.inner.dense_candidates(vector, self.everything, limit)

    def load_chunks(self, chunk_ids: list[str], access: AccessFilter) -> Any:
        return self.inner.load_chunks(chunk_ids, self.everything)


def test_an_injected_leak_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build = suite.cached_index
    monkeypatch.setattr(suite, "cached_index", lambda *a, **k: IgnoresTheFilter(build(*a, **k)))
    report = evaluate(tmp_path, "demo", demo_folder(tmp_path / "demo"), systems=("one_hop",))
    assert report.systems["one_hop"].metrics["leak_rate"] > 0
    d2 = next(run for run in report.systems["one_hop"].runs if run.qid == "d2")
    assert "retrieved forbidden document 'salary-bands'" in d2.notes
