"""Only verified text reaches a client: the draft and the verdicts are in no state, checkpoint or stream mode.

Issue 31, item 6: a LangGraph client could stop a run before `verify` (`interrupt_before`) and read the unverified
draft from the thread's state, and finished threads kept `draft` and `verdicts`. Each test plants a claim the
verifier drops and looks for it everywhere a client can look.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from boundloop.domain.models import Claim
from boundloop.graph.reasoner import StepResult
from boundloop.loop.builder import build_graph
from boundloop.reasoners.llm import LLMReasoner, LLMSettings, build_chat_model
from boundloop.reasoners.offline import OfflineReasoner
from tests.llm.openai_stub import Reply, StubServer, answer, schema_name
from tests.llm.scripted import structured
from tests.loop_fixtures import make_runner

QUESTION = "Who approves expense claims above EUR 5,000?"
MARKER = "UNVERIFIED-4242"
PLANTED = f"The door code of the finance office is {MARKER}."  # its value is in no chunk: the verifier drops it
EVERY_MODE = ["values", "updates", "debug", "tasks", "checkpoints", "custom", "messages"]


class PlantsAClaim(OfflineReasoner):
    """The offline reasoner, with one more drafted claim (and a short answer) that no evidence states."""

    def synthesise(self, question, understanding, evidence, assessment, budget):
        result = super().synthesise(question, understanding, evidence, assessment, budget)
        planted = Claim(text=PLANTED, citations=[evidence[0].chunk_id])
        draft = result.value.model_copy(update={"claims": [*result.value.claims, planted], "short_answer": MARKER})
        return StepResult(draft, tokens=result.tokens, note=result.note, stopped=result.stopped)


def planting_model(body: dict[str, Any]) -> Reply:
    """The scripted model of `tests.llm.scripted`, whose synthesise reply adds the planted claim."""
    reply = structured(body)
    if schema_name(body) == "Answer" and reply["claims"]:
        reply = {"claims": [*reply["claims"], {"text": PLANTED, "citations": reply["claims"][0]["citations"]}],
                 "short_answer": MARKER}
    return answer(reply)


def text(value: Any) -> str:
    return json.dumps(value, default=repr)


def run(graph, context, **options) -> tuple[list[Any], dict[str, Any]]:
    """Every stream mode of one run, checkpointed after each step (the LangGraph server's default durability)."""
    config = {"configurable": {"thread_id": "thread"}}
    chunks = list(graph.stream({"question": QUESTION}, config, context=context, stream_mode=EVERY_MODE,
                               durability="async", **options))
    return chunks, config


def nowhere(saver: InMemorySaver, graph, config, chunks: list[Any]) -> None:
    """The planted claim is in no streamed chunk, no state of the history and no stored checkpoint or write."""
    assert MARKER not in text(chunks)
    history = [snapshot.values for snapshot in graph.get_state_history(config)]
    assert len(history) > 10 and MARKER not in text(history)
    assert MARKER not in repr(saver.storage) + repr(saver.writes)  # serialized blobs: their text shows in repr


def test_a_dropped_claim_never_enters_the_state_nor_any_stream(index, encoder, resolver):
    saver = InMemorySaver()
    graph = build_graph(checkpointer=saver)
    context = make_runner(index, encoder, resolver, reasoner=PlantsAClaim()).context_for("bob")
    chunks, config = run(graph, context)
    final = graph.get_state(config).values
    assert final["status"] == "answered" and final["dropped_claims"] == 1 and "Head of Finance" in final["answer"]
    assert [c["text"] for c in map(dict, final["claims"])] == [c.text for c in final["verified"]]
    assert not {"draft", "verdicts", "draft_conflicts"} & set(final)
    [verify] = [s for s in final["spans"] if s.node == "verify"]
    assert verify.decision.endswith("1 dropped") and verify.reason == "values not in cited evidence"
    nowhere(saver, graph, config, chunks)


def test_a_run_stopped_before_verify_holds_no_draft(index, encoder, resolver):
    saver = InMemorySaver()
    graph = build_graph(checkpointer=saver)
    context = make_runner(index, encoder, resolver, reasoner=PlantsAClaim()).context_for("bob")
    chunks, config = run(graph, context, interrupt_before=["verify"])
    stopped = graph.get_state(config)
    assert stopped.next == ("verify",)
    assert [s.node for s in stopped.values["spans"]][-2:] == ["synthesise", "governor"]  # drafted, not verified
    assert not stopped.values.get("verified") and stopped.values.get("short_answer") is None
    nowhere(saver, graph, config, chunks)


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_the_models_draft_is_not_streamed_as_messages(clean_env, index, encoder, resolver):
    """`stream_mode="messages"` streams the replies of chat models called inside nodes: not the reasoner's."""
    saver = InMemorySaver()
    graph = build_graph(checkpointer=saver)
    with StubServer(responder=planting_model) as model:
        settings = LLMSettings(provider="openai", model="stub-model", base_url=model.url)
        reasoner = LLMReasoner(build_chat_model(settings), settings)
        chunks, config = run(graph, make_runner(index, encoder, resolver, reasoner=reasoner).context_for("bob"))
    assert "Answer" in {schema_name(seen.body) for seen in model.seen}  # the model drafted the planted claim
    final = graph.get_state(config).values
    assert final["status"] == "answered" and final["dropped_claims"] == 1
    assert not [chunk for chunk in chunks if chunk[0] == "messages"]
    nowhere(saver, graph, config, chunks)
