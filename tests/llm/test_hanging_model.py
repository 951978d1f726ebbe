"""A model that hangs or answers slowly costs a run one share of its time, then the run goes on offline.

Real local servers on 127.0.0.1 (`openai_stub.StubServer`: one that accepts and never answers, one that answers
after a delay) behind the real client; the reasoner and the limits come from the environment, as in a deployment.
"""

from __future__ import annotations

import json
import time

import pytest

from boundloop.cli.main import main
from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits, CallBudget
from boundloop.policies.errors import BoundloopError
from boundloop.policies.model_breaker import ModelBreaker
from boundloop.reasoners.factory import build_reasoner
from boundloop.reasoners.llm import LLMSettings
from boundloop.reasoners.llm.settings import CALL_SHARE
from tests.llm.fakes import EXPENSE, LOOKUP, verdict
from tests.llm.openai_stub import Reply, StubServer, answer, refused_url, schema_name
from tests.llm.scripted import responder
from tests.loop_fixtures import make_runner

QUESTION = "Who approves expense claims above EUR 5,000?"
LEAVE = "How many days of annual leave do Lisbon employees get?"
MAX_SECONDS = 3.0
HANG_SLACK = 1.0
"""Generous: a run that waited on the model for all its time would still pass; only a hang past the limit fails."""
AGAIN = "; the model is not called again in this run"


@pytest.fixture
def model_env(monkeypatch):
    """Runs limited to MAX_SECONDS, offline until `model_env(url)` sets an `openai:` model served at `url`."""
    for name in ("BOUNDLOOP_MODEL", "OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY", "BOUNDLOOP_LLM_TIMEOUT",
                 "BOUNDLOOP_LLM_CALL_SHARE", "BOUNDLOOP_LLM_METHOD", "BOUNDLOOP_PROMPTS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BOUNDLOOP_MAX_SECONDS", str(MAX_SECONDS))

    def point_at(url: str) -> None:
        monkeypatch.setenv("BOUNDLOOP_MODEL", "openai:stub-model")
        monkeypatch.setenv("BOUNDLOOP_OPENAI_BASE_URL", url)

    return point_at


def env_runner(index, resolver, encoder) -> LoopRunner:
    return LoopRunner(resolver=resolver, backend=index, encoder=encoder, reasoner=build_reasoner(),
                      limits=BudgetLimits.from_env())


# --- the share of the time left ------------------------------------------------------------------------------------

@pytest.mark.parametrize("settings, left, seconds", [
    ({}, 18.0, 18.0 * CALL_SHARE),  # the default: a hanging model leaves the offline path 60 % of the time
    ({"call_share": 0.25}, 8.0, 2.0),
    ({"call_share": 1.0}, 3.0, 3.0),  # a call may use all the time left, as before the share existed
    ({"call_timeout": 1.5}, 18.0, 1.5),  # the cap in seconds, when it is shorter than the share
    ({"call_timeout": 30.0}, 10.0, 10.0 * CALL_SHARE),
    ({}, -0.5, 0.0),  # past the deadline: nothing
])
def test_a_call_waits_its_share_of_the_time_left_and_at_most_the_cap(settings, left, seconds):
    config = LLMSettings(provider="openai", model="m", **settings)
    assert config.call_seconds(left) == pytest.approx(seconds)


@pytest.mark.parametrize("value, share", [("", CALL_SHARE), ("0.25", 0.25), (" 1 ", 1.0)])
def test_the_share_is_read_from_the_environment(monkeypatch, value, share):
    monkeypatch.setenv("BOUNDLOOP_LLM_CALL_SHARE", value)
    assert LLMSettings.from_env("openai", "m").call_share == share


@pytest.mark.parametrize("value", ["0", "1.5", "-0.2", "half", "nan", "inf"])
def test_a_bad_share_is_one_line_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv("BOUNDLOOP_LLM_CALL_SHARE", value)
    with pytest.raises(BoundloopError) as refused:
        LLMSettings.from_env("openai", "m")
    assert str(refused.value) == f"BOUNDLOOP_LLM_CALL_SHARE={value!r} must be a number more than 0 and at most 1"


# --- the run's breaker ---------------------------------------------------------------------------------------------

def test_the_breaker_keeps_the_first_failure():
    breaker = ModelBreaker()
    assert not breaker.open and breaker.explanation() is None
    breaker.trip("plan", "timeout")
    breaker.trip("synthesise", "connection refused")
    assert breaker.open and (breaker.step, breaker.failure) == ("plan", "timeout")
    assert breaker.explanation() == "model unavailable (timeout in plan); the rest of the run was decided offline"


def test_after_a_timeout_no_later_step_of_the_run_calls_the_model(model_env):
    with StubServer(responder=lambda body: Reply("hang")) as stub:
        model_env(stub.url)
        reasoner, budget = build_reasoner(), CallBudget(seconds=1.0, tokens=40_000)
        understood = reasoner.understand(QUESTION, budget)
        planned = reasoner.plan(QUESTION, understood.value, budget)
        drafted = reasoner.synthesise(QUESTION, LOOKUP, [EXPENSE], None, budget)
        judged = reasoner.judge(QUESTION, [verdict(drafted.value.claims[0].text, ["expense#0"])], [EXPENSE], budget)
    assert len(stub.seen) == 1 and understood.note == f"model failed (timeout); offline fallback{AGAIN}"
    skipped = "model not called (unavailable since understand: timeout); offline fallback"
    assert planned.note == drafted.note == skipped and judged.note.startswith(skipped)
    assert planned.value.subqueries and drafted.value.claims and judged.value[0].supported  # the offline decisions


def test_a_refused_connection_opens_the_breaker_and_an_http_error_does_not(model_env):
    model_env(refused_url())
    reasoner, budget = build_reasoner(), CallBudget(seconds=5.0, tokens=40_000)
    reasoner.understand(QUESTION, budget)
    assert budget.breaker.failure == "connection refused"
    with StubServer(script=[Reply("status", status=500), answer({"searches": []})]) as stub:
        model_env(stub.url)
        reasoner, budget = build_reasoner(), CallBudget(seconds=5.0, tokens=40_000)
        assert "HTTP 500" in reasoner.understand(QUESTION, budget).note
        reasoner.plan(QUESTION, LOOKUP, budget)
    assert not budget.breaker.open and len(stub.seen) == 2  # the model answered: the next step tried it again


# --- whole runs ----------------------------------------------------------------------------------------------------

def test_a_hanging_model_costs_one_share_and_the_run_answers_offline(model_env, index, resolver, encoder):
    offline = make_runner(index, encoder, resolver).ask(QUESTION, user="bob")
    with StubServer(responder=lambda body: Reply("hang")) as stub:
        model_env(stub.url)
        started = time.monotonic()
        events = list(env_runner(index, resolver, encoder).stream(QUESTION, user="bob"))
        elapsed = time.monotonic() - started
    reasons = {span.node: span.reason for kind, span in events if kind == "span"}
    result = events[-1][1]
    assert elapsed < MAX_SECONDS + HANG_SLACK
    assert len(stub.seen) == 1  # understand waited its share; nothing else was sent
    assert result.status == "answered" and result.complete and result.usage.retrieval_calls > 0
    assert (result.answer, result.short_answer) == (offline.answer, offline.short_answer)
    assert result.model_unavailable == ("model unavailable (timeout in understand); the rest of the run was "
                                        "decided offline")
    assert reasons["understand"] == f"model failed (timeout); offline fallback{AGAIN}"
    assert reasons["plan"] == "model not called (unavailable since understand: timeout); offline fallback"


def test_the_breaker_serves_one_run_the_next_run_tries_the_model_again(model_env, index, resolver, encoder):
    with StubServer(responder=lambda body: Reply("hang")) as stub:
        model_env(stub.url)
        loop = env_runner(index, resolver, encoder)
        first, second = loop.ask(QUESTION, user="bob"), loop.ask(QUESTION, user="bob")
    assert len(stub.seen) == 2 and first.model_unavailable and second.model_unavailable


def test_a_model_slower_than_its_share_is_given_up_and_the_run_answers_offline(model_env, index, resolver, encoder):
    with StubServer(responder=lambda body: answer({}, delay=MAX_SECONDS * 2)) as stub:
        model_env(stub.url)
        started = time.monotonic()
        result = env_runner(index, resolver, encoder).ask(QUESTION, user="bob")
        elapsed = time.monotonic() - started
    assert elapsed < MAX_SECONDS + HANG_SLACK and len(stub.seen) == 1
    assert result.status == "answered" and result.complete and "timeout in understand" in result.model_unavailable


def test_a_model_that_answers_slowly_within_its_share_decides_every_step(model_env, index, resolver, encoder):
    answers = responder(prompt_tokens=120, completion_tokens=30)

    def slowly(body):
        reply = answers(body)
        return Reply(reply.kind, reply.payload, delay=0.2, prompt_tokens=120, completion_tokens=30)

    with StubServer(responder=slowly) as stub:
        model_env(stub.url)
        result = env_runner(index, resolver, encoder).ask(QUESTION, user="bob")
    assert [schema_name(s.body) for s in stub.seen] == ["QuestionUnderstanding", "SearchPlan", "Answer", "Judgement"]
    assert result.status == "answered" and result.model_unavailable is None and result.usage.tokens == 4 * 150


@pytest.mark.slow
def test_the_demo_question_is_answered_offline_when_the_model_hangs(model_env, demo_cache, capsys):
    """`boundloop ask` on the demo corpus, as alice: the offline answer, and the result says the model was down."""
    assert main(["ask", LEAVE, "--user", "alice", "--json"]) == 0
    offline = json.loads(capsys.readouterr().out)
    with StubServer(responder=lambda body: Reply("hang")) as stub:
        model_env(stub.url)
        started = time.monotonic()
        code = main(["ask", LEAVE, "--user", "alice", "--json"])
        elapsed = time.monotonic() - started
        result = json.loads(capsys.readouterr().out)
        assert main(["ask", LEAVE, "--user", "alice"]) == 0
        text = capsys.readouterr().out
    assert code == 0 and elapsed < MAX_SECONDS + HANG_SLACK + 1.0  # + the CLI's start-up
    assert result["status"] == "answered" and result["short_answer"] == offline["short_answer"]
    assert result["usage"]["retrieval_calls"] > 0 and (result["complete"] or result["stop_reason"] == "time")
    assert result["model_unavailable"].startswith("model unavailable (timeout in understand)")
    assert offline["model_unavailable"] is None
    assert "model unavailable (timeout in understand)" in text


def test_a_run_whose_reader_left_cancels_the_model_call_in_flight(model_env, monkeypatch, tmp_path, index,
                                                                    resolver, encoder):
    """A streaming client that disconnects while a model call hangs: the call is cancelled, not waited out.

    The call may wait its share of 600 s; the run still ends at once, recorded cancelled (the liveness bound below is
    twenty times looser than the poll, and a fortieth of what the call would have waited).
    """
    import threading

    from boundloop.runstore.sqlite import SqliteRunStore

    monkeypatch.setenv("BOUNDLOOP_MAX_SECONDS", "600")
    monkeypatch.setenv("BOUNDLOOP_LLM_CALL_SHARE", "1")
    with StubServer(responder=lambda body: Reply("hang")) as stub:
        model_env(stub.url)
        runner = LoopRunner(resolver=resolver, backend=index, encoder=encoder, reasoner=build_reasoner(),
                            limits=BudgetLimits.from_env(), store=SqliteRunStore(tmp_path / "runs.db"))
        cancel, seen = threading.Event(), []
        events = runner.stream(QUESTION, user="bob", cancel=cancel)

        def read() -> None:
            for event in events:
                seen.append(event)
                if cancel.is_set():
                    break
            events.close()  # the reader leaves, as the SSE bridge does

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        while not stub.seen and reader.is_alive():
            time.sleep(0.01)  # the model call is in flight
        cancel.set()
        reader.join(timeout=15)
    assert not reader.is_alive(), "the hanging model call was waited out"
    assert runner.store is not None and runner.store.count("cancelled") == 1
    assert len(stub.seen) == 1  # the call in flight; no later step called the model
