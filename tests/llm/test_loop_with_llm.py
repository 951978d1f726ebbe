"""Whole runs of the loop with the LLM reasoner behind the real client: a working endpoint and a hanging one."""

from __future__ import annotations

import time

import pytest

from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.reasoners.llm import LLMReasoner, LLMSettings, build_chat_model
from tests.llm.openai_stub import Reply, StubServer, schema_name
from tests.llm.scripted import responder

QUESTION = "Who approves expense claims above EUR 5,000?"


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def runner(index, resolver, encoder, url: str, max_seconds: float = 18.0, **settings) -> LoopRunner:
    config = LLMSettings(provider="openai", model="stub-model", base_url=url, **settings)
    return LoopRunner(resolver=resolver, backend=index, encoder=encoder,
                      reasoner=LLMReasoner(build_chat_model(config), config),
                      limits=BudgetLimits(max_seconds=max_seconds))


def grounded(result: dict, index) -> bool:
    """Every citation of an answer is a chunk the asking user may see (bob: all-staff)."""
    return bool(result.citations) and all(c.doc_id in {"expense", "orgchart", "seating"}
                                             for c in result.citations)


def test_a_run_decided_by_the_model_answers_with_citations_and_counts_its_tokens(clean_env, index, resolver,
                                                                                  encoder):
    with StubServer(responder=responder(prompt_tokens=120, completion_tokens=30)) as stub:
        result = runner(index, resolver, encoder, stub.url).ask(QUESTION, user="bob")
    assert result.status == "answered" and grounded(result, index)
    assert "Head of Finance" in result.answer
    assert [s.body["response_format"]["json_schema"]["name"] for s in stub.seen] == [
        "QuestionUnderstanding", "SearchPlan", "Answer", "Judgement"]
    assert result.usage.tokens == 4 * 150  # provider usage, not estimates


def test_a_hanging_endpoint_cannot_hold_a_run_past_its_deadline(clean_env, index, resolver, encoder):
    """Even a call allowed all the time left (share 1) is cut at the run's deadline."""
    with StubServer(responder=lambda body: Reply("hang")) as stub:
        loop = runner(index, resolver, encoder, stub.url, max_seconds=3, call_share=1.0)
        started = time.monotonic()
        result = loop.ask(QUESTION, user="bob")
        elapsed = time.monotonic() - started
    assert elapsed < 3.5
    assert result.status == "abstained" or (result.status == "answered" and grounded(result, index))
    assert len(stub.seen) == 1  # understand waited out the clock; nothing else was sent without time left


def test_with_a_per_call_cap_a_hanging_endpoint_still_gets_a_grounded_offline_answer(clean_env, index, resolver,
                                                                                      encoder):
    with StubServer(responder=lambda body: Reply("hang")) as stub:
        loop = runner(index, resolver, encoder, stub.url, max_seconds=3, call_timeout=0.3)
        started = time.monotonic()
        result = loop.ask(QUESTION, user="bob")
        elapsed = time.monotonic() - started
    assert elapsed < 3.5 and result.status == "answered" and grounded(result, index)
    assert result.complete and len(stub.seen) == 1  # the capped call timed out: the run's breaker opened
    assert result.model_unavailable and "timeout in understand" in result.model_unavailable


def test_a_judge_that_uses_up_the_deadline_marks_the_run_incomplete(clean_env, index, resolver, encoder):
    """The judge is the closing path: it runs, but if it eats the time left, the run says so (stop_reason time).

    Only a call allowed all the time left can eat it: share 1 instead of the default.
    """
    answers = responder(prompt_tokens=120, completion_tokens=30)

    def hang_on_the_judge(body):
        return Reply("hang") if schema_name(body) == "Judgement" else answers(body)

    with StubServer(responder=hang_on_the_judge) as stub:
        result = runner(index, resolver, encoder, stub.url, max_seconds=3, call_share=1.0).ask(QUESTION, user="bob")
    assert schema_name(stub.seen[-1].body) == "Judgement"
    assert result.complete is False and result.stop_reason == "time"
    assert result.status == "answered" and grounded(result, index)  # the offline checks still stand
