"""Pure pieces: reducers, the budget policy, the router, stats and the outcome policy."""

import pytest

from boundloop.domain.models import Evidence, SubQuery
from boundloop.domain.usage import Usage
from boundloop.graph.reducers import merge_evidence, merge_subqueries
from boundloop.graph.routing import route_after_governor
from boundloop.policies.budget import (
    BudgetLimits,
    CallBudget,
    call_budget,
    check_before_retrieval_call,
    check_before_step,
    remaining_seconds,
)
from boundloop.policies.model_breaker import ModelBreaker
from boundloop.runstore.stats import summarise

LIMITS = BudgetLimits()


def ev(chunk, score=1.0, hop=1, found_by=("q0",), rank=1):
    return Evidence(chunk_id=chunk, doc_id=chunk.split("#")[0], title="t", text="x", score=score, hop=hop,
                    found_by=list(found_by), rank=rank)


def test_merge_evidence_dedupes_and_keeps_the_best():
    left = [ev("a#0", score=0.5, hop=1, found_by=["q0"], rank=3)]
    right = [ev("a#0", score=0.9, hop=2, found_by=["r1"], rank=1), ev("b#0")]
    merged = merge_evidence(left, right)
    assert [e.chunk_id for e in merged] == ["a#0", "b#0"]
    assert (merged[0].score, merged[0].hop, merged[0].rank, merged[0].found_by) == (0.9, 1, 1, ["q0", "r1"])
    assert left[0].score == 0.5  # inputs are not mutated


def test_merge_subqueries_ignores_repeated_ids():
    a, b = SubQuery(id="q0", text="x"), SubQuery(id="q1", text="y")
    assert merge_subqueries([a], [a, b]) == [a, b]


@pytest.mark.parametrize(
    "step, usage, expected",
    [
        ("plan", Usage(), None),
        ("retrieve", Usage(hops=3), "hops"),
        ("retrieve", Usage(hops=2, retrieval_calls=6), "retrieval_calls"),
        ("evaluate", Usage(hops=3, retrieval_calls=6), None),  # only retrieval counts hops and calls
        ("refine", Usage(tokens=45_000), "tokens"),
        ("understand", Usage(elapsed_ms=18_000), "time"),
        ("synthesise", Usage(elapsed_ms=99_000, tokens=10**6), None),  # the closing path always runs
        ("end", Usage(hops=9), None),
        ("respond", Usage(hops=9), None),
    ],
)
def test_check_before_step(step, usage, expected):
    assert check_before_step(step, usage, LIMITS) == expected


def test_retrieval_and_model_call_checks():
    assert check_before_retrieval_call(Usage(retrieval_calls=5), LIMITS) is None
    assert check_before_retrieval_call(Usage(retrieval_calls=6), LIMITS) == "retrieval_calls"
    assert check_before_retrieval_call(Usage(elapsed_ms=18_500), LIMITS) == "time"
    breaker = ModelBreaker()
    left = call_budget(Usage(tokens=44_000, elapsed_ms=17_000), LIMITS, breaker)
    assert left == CallBudget(seconds=1.0, tokens=1000)
    assert left.allows(1000) and not left.allows(1001)
    assert left.after(10).breaker is breaker  # the run's one breaker goes with what is left
    assert remaining_seconds(Usage(elapsed_ms=20_000), LIMITS) == 0.0


def test_usage_adds_up_every_field():
    total = Usage(hops=1, tokens=10) + Usage(tokens=5, retrieval_calls=2)
    assert total == Usage(hops=1, tokens=15, retrieval_calls=2)


@pytest.mark.parametrize(
    "state, route",
    [
        ({}, "resolve"),
        ({"next_step": None}, "resolve"),  # intake clears the last question's next step
        ({"next_step": "understand"}, "understand"),
        ({"next_step": "retrieve"}, "retrieve"),
        ({"next_step": "retrieve", "stop_reason": "hops"}, "synthesise"),
        ({"next_step": "plan", "stop_reason": "time"}, "synthesise"),
        ({"next_step": "verify", "stop_reason": "time"}, "verify"),
        ({"next_step": "respond", "stop_reason": "time"}, "respond"),
        ({"next_step": "end"}, "__end__"),
    ],
)
def test_router(state, route):
    assert route_after_governor(state) == route


def _run(query_class: str, status: str, stop_reason: str | None, hops: int, **more: object) -> dict:
    """A finished run as the store gives it to `summarise`."""
    return {"query_class": query_class, "status": status, "stop_reason": stop_reason, "usage": {"hops": hops}, **more}


def test_stats_separates_limit_hit_runs():
    runs = [
        {"query_class": "multi_hop", "status": "answered", "stop_reason": None, "usage": {"hops": 2}},
        {"query_class": "multi_hop", "status": "fallback", "stop_reason": "hops", "usage": {"hops": 3}},
        {"query_class": "lookup", "status": "answered", "stop_reason": None, "usage": {"hops": 1}},
        {"query_class": "lookup", "status": "answered", "stop_reason": "time", "usage": {"hops": 1}},
    ]
    assert summarise(runs, kept=9, interrupted=2)["runs"] == 9
    summary = summarise(runs)
    assert summary["avg_hops_by_class"] == {"lookup": 1.0, "multi_hop": 2.5}
    assert summary["limit_hit_share"] == {"hops": 0.25, "tokens": 0.0, "time": 0.25, "retrieval_calls": 0.0,
                                        "documents": 0.0}
    assert summary["limit_hit_runs"]["answered_share"] == 0.5 and summary["other_runs"]["answered_share"] == 1.0
    assert summary["feedback"] == {"rated": 0, "positive_share": None}


def test_stats_count_feedback_per_class_and_for_limit_hit_runs_against_the_rest():
    runs = [
        _run("lookup", "answered", None, 1, feedback_score=1),
        _run("lookup", "answered", None, 1, feedback_score=-1),
        _run("lookup", "answered", None, 1, feedback_score=1),
        _run("lookup", "answered", None, 1, feedback_score=None),
        _run("multi_hop", "fallback", "hops", 3, feedback_score=-1),
        _run("multi_hop", "answered", None, 2, feedback_score=None),
    ]
    summary = summarise(runs)
    assert summary["feedback"] == {"rated": 4, "positive_share": 0.5}
    assert summary["feedback_by_class"] == {"lookup": {"rated": 3, "positive_share": 2 / 3},
                                            "multi_hop": {"rated": 1, "positive_share": 0.0}}
    assert (summary["limit_hit_runs"]["rated"], summary["limit_hit_runs"]["positive_share"]) == (1, 0.0)
    assert (summary["other_runs"]["rated"], summary["other_runs"]["positive_share"]) == (3, 2 / 3)
