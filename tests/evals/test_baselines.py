"""The baselines: one-hop retrieves once with the whole question; untargeted re-retrieves it with growing k."""

from __future__ import annotations

import pytest

from boundloop.domain.models import Assessment, Gap, SubQuery, Understanding
from boundloop.evals.baselines import ONE_HOP_K, OneHopReasoner, UntargetedReasoner
from boundloop.evals.systems import SystemRunner
from boundloop.policies.budget import BudgetLimits, CallBudget
from boundloop.reasoners.offline.planning import FIRST_HOP_K
from tests.conftest import HashEncoder

QUESTION = "In which room does the person who approves expense claims above EUR 5,000 sit?"
MULTI_HOP = Understanding(query_class="multi_hop", entities=["EUR 5,000"])
BUDGET = CallBudget(seconds=10, tokens=10_000)
GAP = Assessment(question_coverage=0.5, gap=Gap(kind="bridge", description="follow Priya Raman",
                                                 bridge_entities=["Priya Raman"], terms=["room"]))
LIMITS = BudgetLimits(max_hops=3, max_retrieval_calls=6)


def test_one_hop_plans_one_whole_question_search_and_never_refines() -> None:
    plan = OneHopReasoner().plan(QUESTION, MULTI_HOP, BUDGET).value
    assert [(q.text, q.mode, q.k) for q in plan.subqueries] == [(QUESTION, "hybrid", ONE_HOP_K)]
    assert OneHopReasoner().refine(QUESTION, MULTI_HOP, plan.subqueries, [], GAP, 1).value.action == "stop"


def test_untargeted_refines_with_the_whole_question_and_a_growing_k() -> None:
    reasoner = UntargetedReasoner(max_hops=3)
    first = reasoner.refine(QUESTION, MULTI_HOP, [], [], GAP, 1).value
    second = reasoner.refine(QUESTION, MULTI_HOP, [], [], GAP, 2).value
    assert first.action == second.action == "retrieve"
    assert [(q.text, q.k) for q in first.subqueries] == [(QUESTION, 2 * FIRST_HOP_K)]
    assert [(q.text, q.k) for q in second.subqueries] == [(QUESTION, 3 * FIRST_HOP_K)]
    assert first.subqueries[0].id != second.subqueries[0].id


def test_untargeted_stops_when_the_loop_would_or_when_hops_are_spent() -> None:
    reasoner = UntargetedReasoner(max_hops=3)
    assert reasoner.refine(QUESTION, MULTI_HOP, [], [], Assessment(), 1).value.action == "stop"
    assert reasoner.refine(QUESTION, MULTI_HOP, [], [], GAP, 3).value.action == "stop"


def test_untargeted_keeps_the_loops_plan() -> None:
    plan = UntargetedReasoner(max_hops=3).plan(QUESTION, MULTI_HOP, BUDGET).value
    assert len(plan.subqueries) > 1 and plan.subqueries[0] == SubQuery(
        id="q0", text=QUESTION, mode="hybrid", purpose="the whole question", k=FIRST_HOP_K)


@pytest.fixture
def runners(index, resolver) -> dict[str, SystemRunner]:
    return {name: SystemRunner(name, resolver, index, HashEncoder(), LIMITS)
            for name in ("loop", "one_hop", "untargeted")}


def test_through_the_graph_one_hop_makes_one_retrieval_call(runners: dict[str, SystemRunner]) -> None:
    record = runners["one_hop"].run(QUESTION, "bob")
    assert (record.usage.hops, record.usage.retrieval_calls) == (1, 1)
    assert {e.hop for e in record.evidence} == {1}


def test_through_the_graph_untargeted_never_hits_the_hop_limit(runners: dict[str, SystemRunner]) -> None:
    record = runners["untargeted"].run(QUESTION, "bob")
    assert record.usage.hops <= LIMITS.max_hops and record.stop_reason is None


def test_records_carry_the_evidence_and_drafted_claims_from_the_final_state(runners: dict[str, SystemRunner]) -> None:
    record = runners["loop"].run(QUESTION, "bob")
    assert record.evidence and all(e.hop >= 1 for e in record.evidence)
    assert record.claims_kept <= record.claims_drafted
    assert {e.doc_id for e in record.evidence} <= {"expense", "orgchart", "seating"}  # bob's documents only
    assert not runners["loop"].runner.checkpointer.storage  # the run's thread was dropped once read
