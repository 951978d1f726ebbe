"""The real langchain-openai client against a local OpenAI-compatible server: answers, failures and deadlines."""

from __future__ import annotations

import time

import pytest

from boundloop.policies.budget import BudgetExhausted
from boundloop.reasoners.llm import LLMReasoner, LLMSettings, build_chat_model
from boundloop.reasoners.llm.settings import OUTPUT_TOKENS
from boundloop.reasoners.offline import OfflineReasoner
from tests.llm.fakes import EXPENSE, LOOKUP, ORGCHART, budget, verdict
from tests.llm.openai_stub import Reply, StubServer, answer, refused_url

QUESTION = "Who approves expense claims above EUR 5,000?"
AGAIN = "; the model is not called again in this run"  # a timeout or no connection opens the run's breaker
UNDERSTOOD = {"query_class": "multi_hop", "entities": ["EUR 5,000"], "answer_type": "person"}


@pytest.fixture
def stub(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with StubServer() as server:
        yield server


def llm(url: str, **settings) -> LLMReasoner:
    config = LLMSettings(provider="openai", model="stub-model", base_url=url, **settings)
    return LLMReasoner(build_chat_model(config), config)


def timed(fn, *args):
    started = time.monotonic()
    result = fn(*args)
    return result, time.monotonic() - started


@pytest.mark.parametrize("method", ["json_schema", "function_calling", "json_mode"])
def test_every_model_step_decides_from_the_servers_answers(stub, method):
    stub.script += [
        answer(UNDERSTOOD, prompt_tokens=101, completion_tokens=9),
        answer({"searches": [{"text": "expense approval limit", "mode": "keyword", "purpose": "p", "k": 4}]},
               prompt_tokens=150, completion_tokens=20),
        answer({"claims": [{"text": "Claims above EUR 5,000 need approval from the Head of Finance.",
                            "citations": ["expense#0"]}], "short_answer": "the Head of Finance"},
               prompt_tokens=300, completion_tokens=25),
        answer({"checks": [{"claim": 0, "supported": True, "reason": ""}]}, prompt_tokens=200, completion_tokens=8),
    ]
    reasoner = llm(stub.url, method=method)
    understood = reasoner.understand(QUESTION, budget())
    plan = reasoner.plan(QUESTION, understood.value, budget())
    draft = reasoner.synthesise(QUESTION, understood.value, [EXPENSE, ORGCHART], None, budget())
    judged = reasoner.judge(QUESTION, [verdict(draft.value.claims[0].text, ["expense#0"])], [EXPENSE], budget())
    assert understood.value.model_dump() == UNDERSTOOD and understood.tokens == 110
    assert [(q.id, q.text, q.mode, q.k) for q in plan.value.subqueries] == [("q0", "expense approval limit",
                                                                              "keyword", 4)]
    assert plan.tokens == 170 and draft.tokens == 325 and judged.tokens == 208
    assert draft.value.claims[0].citations == ["expense#0"] and judged.value[0].supported
    assert draft.value.short_answer == "the Head of Finance"
    first = stub.seen[0].body
    assert first["model"] == "stub-model" and first["max_completion_tokens"] == OUTPUT_TOKENS["understand"]
    if method == "json_schema":
        assert first["response_format"]["json_schema"]["name"] == "QuestionUnderstanding"
        assert first["response_format"]["json_schema"]["strict"] is True
    elif method == "function_calling":
        assert first["tool_choice"]["function"]["name"] == "QuestionUnderstanding"
    else:
        assert first["response_format"] == {"type": "json_object"}


def test_http_500_falls_back_offline_at_once(stub):
    stub.script.append(Reply("status", status=500))
    result, seconds = timed(llm(stub.url).understand, QUESTION, budget())
    assert result.note == "model failed (HTTP 500); offline fallback" and seconds < 1.0
    assert result.value == OfflineReasoner().understand(QUESTION, budget()).value and len(stub.seen) == 1


def test_connection_refused_falls_back(stub):
    result, seconds = timed(llm(refused_url()).plan, QUESTION, LOOKUP, budget())
    assert result.note == f"model failed (connection refused); offline fallback{AGAIN}" and seconds < 1.0


@pytest.mark.parametrize("reply", [answer(UNDERSTOOD, delay=5.0), Reply("hang"),
                                   Reply("trickle", UNDERSTOOD, interval=0.2)],
                         ids=["slow reply", "never answers", "slow stream"])
def test_each_call_ends_at_the_time_left(stub, reply):
    stub.script.append(reply)
    result, seconds = timed(llm(stub.url, call_share=1.0).understand, QUESTION, budget(seconds=0.6))
    assert 0.55 < seconds < 1.0  # the reply would take 5 s or more; slack for a loaded CI machine
    assert result.note == f"model failed (timeout); offline fallback{AGAIN}"
    assert result.tokens > 0  # the request may have been processed: its prompt estimate is counted


def test_the_connection_pool_survives_a_cancelled_call(stub):
    stub.script += [Reply("trickle", UNDERSTOOD, interval=0.3), answer(UNDERSTOOD)]
    reasoner = llm(stub.url)
    assert "timeout" in reasoner.understand(QUESTION, budget(seconds=0.3)).note
    assert reasoner.understand(QUESTION, budget()).value.model_dump() == UNDERSTOOD


def test_a_stream_that_finishes_in_time_is_used(stub):
    stub.script.append(Reply("trickle", UNDERSTOOD, interval=0.005))
    assert llm(stub.url).understand(QUESTION, budget(seconds=5)).value.model_dump() == UNDERSTOOD


@pytest.mark.parametrize("method", ["json_schema", "function_calling"])
def test_malformed_json_gets_one_repair(stub, method):
    stub.script += [answer('{"query_class": "lookup", ', prompt_tokens=100, completion_tokens=5),
                    answer(UNDERSTOOD, prompt_tokens=130, completion_tokens=9)]
    result = llm(stub.url, method=method).understand(QUESTION, budget())
    assert result.value.model_dump() == UNDERSTOOD and result.note == "output repaired once"
    assert "could not be used" in stub.seen[1].body["messages"][-1]["content"]
    if method == "function_calling":  # the raw reply, with its usage, survives a parse failure
        assert result.tokens == 244
    else:  # the SDK raises before usage is seen: the first call counts its estimate and completion cap
        assert result.tokens > 139 + OUTPUT_TOKENS["understand"]


def test_malformed_twice_falls_back(stub):
    stub.script += [answer("not json"), answer("{still not")]
    result = llm(stub.url).understand(QUESTION, budget())
    assert result.note == "model failed (unparseable output after one repair); offline fallback"
    assert len(stub.seen) == 2


def test_a_malformed_http_body_falls_back_without_repair(stub):
    stub.script.append(Reply("garbage"))
    result = llm(stub.url).understand(QUESTION, budget())
    assert result.note == "model failed (malformed response); offline fallback" and len(stub.seen) == 1


def test_a_call_past_the_token_limit_is_never_sent(stub):
    with pytest.raises(BudgetExhausted):
        llm(stub.url).plan(QUESTION, LOOKUP, budget(tokens=300))
    draft = llm(stub.url).synthesise(QUESTION, LOOKUP, [EXPENSE], None, budget(tokens=300))
    assert stub.seen == [] and draft.value.claims and "token limit" in draft.note


def test_azure_openai_deployment_through_the_real_azure_client(stub, monkeypatch):
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", stub.url.removesuffix("/v1"))
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")
    stub.script.append(answer(UNDERSTOOD, prompt_tokens=90, completion_tokens=10))
    config = LLMSettings(provider="azure_openai", model="answers-prod")
    result = LLMReasoner(build_chat_model(config), config).understand(QUESTION, budget())
    assert result.value.model_dump() == UNDERSTOOD and result.tokens == 100
    assert stub.seen[0].path.startswith("/openai/deployments/answers-prod/chat/completions?api-version=2024-10-21")
    assert stub.seen[0].body["max_completion_tokens"] == OUTPUT_TOKENS["understand"]
