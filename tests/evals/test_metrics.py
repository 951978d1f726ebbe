"""Per-run scores and their aggregates, as table tests over hand-made records."""

from __future__ import annotations

import pytest

from boundloop.domain.usage import Usage
from boundloop.evals.aggregate import METRICS, aggregate, by_group, mean
from boundloop.evals.leaks import AccessView, LeakDetector
from boundloop.evals.metrics import (
    ScoringContext,
    budget_problems,
    citation_precision,
    score_run,
    support_precision,
    support_recall,
)
from boundloop.evals.records import EvidenceRef, Gold, RunRecord, ShownDoc
from boundloop.policies.budget import BudgetLimits

LIMITS = BudgetLimits(max_hops=3, max_tokens=1000, max_seconds=2.0, max_retrieval_calls=4)
OPEN = AccessView({"A": frozenset({"all"}), "B": frozenset({"all"}), "C": frozenset({"all"})},
                  {"eval": frozenset({"all"})})
CONTEXT = ScoringContext(LIMITS, LeakDetector(OPEN, {"A": "alpha text", "B": "beta text", "C": "gamma text"}))


def gold(**overrides: object) -> Gold:
    values: dict = {"qid": "q1", "qtype": "bridge", "user": "eval", "answers": ["Lisbon"], "answerable": True,
                    "supporting_doc_ids": ["A", "B"]}
    return Gold(**{**values, **overrides})


def record(**overrides: object) -> RunRecord:
    """A record; overrides named after a `Usage` field go into its usage."""
    spent = {"hops": 2, "tokens": 500, "retrieval_calls": 3, "elapsed_ms": 300}
    spent.update({k: v for k, v in overrides.items() if k in Usage.model_fields})
    overrides = {k: v for k, v in overrides.items() if k not in Usage.model_fields}
    values: dict = {"status": "answered", "answer": "He was born in Lisbon. [1]", "usage": Usage(**spent),
                    "latency_ms": 310.0,
                    "citations": [ShownDoc(doc_id="A", chunk_id="A#0")],
                    "evidence": [EvidenceRef(doc_id="A", chunk_id="A#0", hop=1),
                                 EvidenceRef(doc_id="C", chunk_id="C#0", hop=2)],
                    "claims_drafted": 2, "claims_kept": 1}
    return RunRecord(**{**values, **overrides})


@pytest.mark.parametrize(("evidence", "g", "recall", "precision"), [
    ({"A", "C"}, gold(), 0.5, 0.5),
    ({"A", "B"}, gold(), 1.0, 1.0),
    (set(), gold(), 0.0, None),
    ({"A"}, gold(answerable=False, answers=[], supporting_doc_ids=[]), None, None),
    ({"A"}, gold(forbidden_doc_ids=["B"]), 1.0, 1.0),  # B may not be read: recall counts only what may be
])
def test_support_recall_and_precision(evidence: set[str], g: Gold, recall: float | None,
                                      precision: float | None) -> None:
    assert support_recall(evidence, g) == recall
    assert support_precision(evidence, g) == precision


def test_citation_precision_counts_citations_of_supporting_documents() -> None:
    cited = [ShownDoc(doc_id="A", chunk_id="A#0"), ShownDoc(doc_id="C", chunk_id="C#0")]
    assert citation_precision(record(citations=cited), gold()) == 0.5
    assert citation_precision(record(citations=[]), gold()) is None


@pytest.mark.parametrize(("overrides", "problems"), [
    ({}, 0),
    ({"hops": 4}, 1),
    ({"tokens": 1001}, 1),
    ({"retrieval_calls": 5}, 1),
    ({"elapsed_ms": 2400}, 0),  # inside the 0.5 s grace for the closing path
    ({"latency_ms": 2600.0}, 1),
    ({"hops": 9, "tokens": 5000}, 2),
])
def test_budget_problems(overrides: dict, problems: int) -> None:
    assert len(budget_problems(record(**overrides), LIMITS)) == problems


@pytest.mark.parametrize(("status", "answerable", "correct"), [
    ("answered", True, 1.0), ("abstained", True, 0.0), ("fallback", True, 0.0),
    ("answered", False, 0.0), ("abstained", False, 1.0), ("fallback", False, 1.0),
])
def test_abstention_treats_fallback_as_not_answered(status: str, answerable: bool, correct: float) -> None:
    g = gold(answerable=answerable, answers=["Lisbon"] if answerable else [])
    scores, _ = score_run(record(status=status), g, CONTEXT)
    assert scores["abstain_correct"] == correct


def test_unanswered_runs_score_zero_and_unanswerable_questions_skip_answer_scores() -> None:
    scores, notes = score_run(record(), gold(), CONTEXT)
    assert (scores["answer_em"], scores["answer_recall"], notes) == (0.0, 1.0, [])
    assert score_run(record(status="fallback"), gold(), CONTEXT)[0]["answer_recall"] == 0.0
    unanswerable = score_run(record(), gold(answerable=False, answers=[], supporting_doc_ids=[]), CONTEXT)[0]
    assert unanswerable["answer_em"] is None and unanswerable["support_recall"] is None


def test_aggregate_names_every_metric_and_skips_what_does_not_apply() -> None:
    rows = [score_run(record(), gold(), CONTEXT)[0],
            score_run(record(status="abstained", citations=[], claims_drafted=2, claims_kept=0, latency_ms=900.0,
                             stop_reason="hops", hops=4), gold(qtype="comparison"), CONTEXT)[0]]
    metrics = aggregate(rows)
    assert set(METRICS) <= set(metrics)
    assert metrics["n"] == 2
    assert metrics["grounding_rate"] == 0.25  # 1 kept of 4 drafted, summed over runs
    assert metrics["citation_precision"] == 1.0  # the abstained run has no citations to judge
    assert metrics["abstain_accuracy"] == 0.5
    assert metrics["budget_violations"] == 1 and metrics["limit_hit_rate"] == 0.5
    assert metrics["p50_ms"] == pytest.approx(605.0)
    assert metrics["p95_ms"] == pytest.approx(310 + 0.95 * 590)
    groups = by_group(rows, ["bridge", "comparison"])
    assert list(groups) == ["bridge", "comparison"] and groups["bridge"]["n"] == 1


def test_aggregate_of_nothing_is_empty_not_an_error() -> None:
    metrics = aggregate([])
    assert metrics["n"] == 0 and metrics["support_recall"] is None and metrics["p95_ms"] is None
    assert mean([None, None]) is None
