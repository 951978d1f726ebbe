"""Every limit stops a run with the right stop_reason and an incomplete best-so-far answer."""

import time

import pytest

from boundloop.graph.ledger import Ledger
from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.errors import BoundloopError
from boundloop.reasoners.offline import OfflineReasoner
from tests.loop_fixtures import AlwaysRefine, Clock, CostlyEvaluate, make_runner

QUESTION = "Who is the Head of Finance?"


def test_a_normal_run_is_complete(index, encoder, resolver):
    result = make_runner(index, encoder, resolver).ask(QUESTION, "bob")
    assert result.status == "answered" and result.complete is True and result.stop_reason is None
    assert "Priya Raman" in result.answer
    assert result.citations[0].doc_id == "orgchart"


def test_hop_limit(index, encoder, resolver):
    result = make_runner(index, encoder, resolver, reasoner=AlwaysRefine(), max_hops=2).ask(QUESTION, "bob")
    assert result.stop_reason == "hops" and result.complete is False
    assert result.usage.hops == 2
    assert result.status == "answered" and "Priya Raman" in result.answer  # best grounded answer so far


def test_retrieval_call_limit_stops_mid_hop(index, encoder, resolver):
    runner = make_runner(index, encoder, resolver, max_retrieval_calls=2)
    result = runner.ask("Compare the Expense policy and the Org chart and the Lisbon seating chart", "bob")
    assert result.stop_reason == "retrieval_calls" and result.complete is False
    assert result.usage.retrieval_calls == 2


def test_no_retrieval_call_starts_once_the_count_is_spent(index, encoder, resolver):
    runner = make_runner(index, encoder, resolver, reasoner=AlwaysRefine(), max_retrieval_calls=3, max_hops=10)
    result = runner.ask(QUESTION, "bob")
    assert result.usage.retrieval_calls == 3 and result.stop_reason == "retrieval_calls"


def test_token_limit(index, encoder, resolver):
    runner = make_runner(index, encoder, resolver, reasoner=CostlyEvaluate(tokens=5000), max_tokens=5000)
    result = runner.ask("Where does Priya Raman sit, and who is the Head of People?", "bob")
    assert result.stop_reason == "tokens" and result.complete is False
    assert result.status in ("answered", "fallback")


def test_time_limit(index, encoder, resolver):
    clock = Clock()
    runner = make_runner(index, encoder, resolver, reasoner=CostlyEvaluate(clock=clock, seconds=30))
    context = runner.context_for("bob")
    runner.context_for = lambda user, history=None, cancel=None: type(context)(  # type: ignore[method-assign]
        principal=context.principal, searcher=context.searcher, reasoner=context.reasoner,
        limits=context.limits, ledger=Ledger(clock),
    )
    result = runner.ask(QUESTION, "bob")
    assert result.stop_reason == "time" and result.complete is False
    assert result.status == "answered" and "Priya Raman" in result.answer


@pytest.mark.parametrize("max_seconds", [1.0, 2.0])
def test_a_hanging_retriever_cannot_pass_the_deadline(index, encoder, resolver, monkeypatch, max_seconds):
    monkeypatch.setattr(index, "keyword_candidates", lambda *a, **k: time.sleep(max_seconds + 3) or [])
    runner = make_runner(index, encoder, resolver, max_seconds=max_seconds)
    started = time.monotonic()
    result = runner.ask(QUESTION, "bob")
    elapsed = time.monotonic() - started
    assert elapsed < max_seconds + 0.5
    assert result.stop_reason == "time" and result.complete is False
    assert result.status == "abstained"


def test_limits_come_from_the_environment_only(monkeypatch):
    monkeypatch.setenv("BOUNDLOOP_MAX_HOPS", "2")
    monkeypatch.setenv("BOUNDLOOP_MAX_SECONDS", "4.5")
    assert BudgetLimits.from_env() == BudgetLimits(max_hops=2, max_seconds=4.5)
    monkeypatch.setenv("BOUNDLOOP_MAX_TOKENS", "lots")
    with pytest.raises(BoundloopError, match="BOUNDLOOP_MAX_TOKENS='lots' must be a whole number"):
        BudgetLimits.from_env()


@pytest.mark.parametrize(("name", "value", "message"), [
    ("BOUNDLOOP_MAX_HOPS", "abc", "BOUNDLOOP_MAX_HOPS='abc' must be a whole number, at least 1"),
    ("BOUNDLOOP_MAX_HOPS", "2.5", "BOUNDLOOP_MAX_HOPS='2.5' must be a whole number, at least 1"),
    ("BOUNDLOOP_MAX_RETRIEVAL_CALLS", "0", "BOUNDLOOP_MAX_RETRIEVAL_CALLS='0' must be a whole number, at least 1"),
    ("BOUNDLOOP_MAX_SECONDS", "nan", "BOUNDLOOP_MAX_SECONDS='nan' must be a number more than 0"),
    ("BOUNDLOOP_MAX_SECONDS", "soon", "BOUNDLOOP_MAX_SECONDS='soon' must be a number more than 0"),
])
def test_a_bad_limit_names_its_variable(monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(BoundloopError) as caught:
        BudgetLimits.from_env()
    assert str(caught.value) == message


def test_defaults_are_the_product_limits():
    assert BudgetLimits() == BudgetLimits(max_hops=3, max_tokens=45_000, max_seconds=18.0, max_retrieval_calls=6)
    assert LoopRunner.__dataclass_fields__["limits"].type == "BudgetLimits"


@pytest.mark.parametrize("max_tokens", [1, 20, 60, 150, 300, 600, 1200])
def test_no_run_spends_more_tokens_than_its_limit(index, encoder, resolver, max_tokens):
    runner = make_runner(index, encoder, resolver, max_tokens=max_tokens)
    for question in (QUESTION, "Where does Priya Raman sit, and who is the Head of People?",
                     "Compare the Expense policy and the Org chart"):
        result = runner.ask(question, "bob")
        assert result.usage.tokens <= max_tokens, (question, result.usage)
        if result.stop_reason == "tokens":
            assert result.complete is False


def test_with_one_token_the_run_stops_before_understanding(index, encoder, resolver, tmp_path):
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path, max_tokens=1)
    result = runner.ask(QUESTION, "bob")
    assert (result.complete, result.stop_reason, result.usage.tokens) == (False, "tokens", 0)
    assert result.status == "abstained" and result.usage.retrieval_calls == 0
    understand = next(s for s in runner.trace(result.run_id) if s.node == "understand")
    assert understand.decision == "stop" and "tokens" in understand.reason


def test_tokens_are_counted_from_the_first_step(index, encoder, resolver, tmp_path):
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path)
    spans = runner.trace(runner.ask(QUESTION, "bob").run_id)
    assert next(s for s in spans if s.node == "understand").usage.tokens > 0


def test_the_closing_synthesis_fits_in_the_tokens_left(index, encoder, resolver, tmp_path):
    full = make_runner(index, encoder, resolver).ask(QUESTION, "bob")
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path, max_tokens=full.usage.tokens - 40)
    result = runner.ask(QUESTION, "bob")
    assert result.usage.tokens <= full.usage.tokens - 40
    assert (result.complete, result.stop_reason) == (False, "tokens")
    synthesis = next(s for s in runner.trace(result.run_id) if s.node == "synthesise")
    assert "tokens left ran out" in synthesis.reason  # the trace says what was cut


class SlowJudge(OfflineReasoner):
    """Offline, but the judgement moves the clock past the deadline (a closing step that uses the time up)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    def judge(self, question, verdicts, evidence, budget):
        self.clock.now += 60
        return super().judge(question, verdicts, evidence, budget)


def test_a_closing_step_that_uses_up_the_deadline_marks_the_run_incomplete(index, encoder, resolver):
    clock = Clock()
    runner = make_runner(index, encoder, resolver, reasoner=SlowJudge(clock))
    context = runner.context_for("bob")
    runner.context_for = lambda user, history=None, cancel=None: type(context)(  # type: ignore[method-assign]
        principal=context.principal, searcher=context.searcher, reasoner=context.reasoner,
        limits=context.limits, ledger=Ledger(clock),
    )
    result = runner.ask(QUESTION, "bob")
    assert (result.complete, result.stop_reason) == (False, "time")
    assert result.status == "answered" and "Priya Raman" in result.answer
