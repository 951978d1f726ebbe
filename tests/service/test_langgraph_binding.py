"""The LangGraph server's graph and auth, without a server: the run context is bound from the identity alone."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import InvalidUpdateError
from langgraph.types import Command
from langgraph_sdk import Auth
from langgraph_sdk.runtime import _ExecutionRuntime, _ReadRuntime

from boundloop.domain.result import RunResult
from boundloop.loop.builder import build_graph
from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.errors import StepOrderError, UnknownUserError
from boundloop.runstore.serde import checkpoint_serde
from boundloop.service import langgraph_auth, langgraph_graph
from boundloop.service.langgraph_graph import make_graph
from tests.service.conftest import make_state
from tests.service.keys import KEYS

SALARY = {"question": "What are the salary bands for level L5 engineers?"}


def _result(values: dict) -> RunResult:
    """The run's result from a graph's output or its last streamed values."""
    return RunResult.model_validate({name: values[name] for name in RunResult.model_fields})


def _docs(values: dict) -> set[str]:
    result = _result(values)
    return {c.doc_id for c in result.citations} | {r.doc_id for r in result.fallback_results}


def test_every_execution_path_ignores_a_context_the_caller_passes(state):
    def bob_graph():  # the server compiles one per run
        return build_graph(context=state.runner.context_for("bob"), served=True)

    forged = state.runner.context_for("alice")  # ignored by a bound graph, so never spent: one serves every path
    assert "salaries" in _docs(build_graph().invoke(SALARY, context=state.runner.context_for("alice")))
    assert "salaries" not in _docs(bob_graph().invoke(SALARY, context=forged))
    assert "salaries" not in _docs(bob_graph().invoke(SALARY, context={"principal": "alice"}))
    assert "salaries" not in _docs(bob_graph().copy().invoke(SALARY, context=forged))
    streamed = list(bob_graph().stream(SALARY, context=forged, stream_mode="values"))[-1]
    assert "salaries" not in _docs(streamed)

    async def async_paths() -> list[dict]:
        results = [await bob_graph().ainvoke(SALARY, context=forged)]
        results.append([c async for c in bob_graph().astream(SALARY, context=forged, stream_mode="values")][-1])
        events = [e async for e in bob_graph().astream_events(SALARY, context=forged, version="v2")]
        results.append(events[-1]["data"]["output"])
        return results

    for result in asyncio.run(async_paths()):
        assert "salaries" not in _docs(result)


def _runtime(kind, user: str | None):
    identity = SimpleNamespace(identity=user) if user else None
    if kind is _ExecutionRuntime:
        return _ExecutionRuntime(access_context="threads.create_run", user=identity, store=None,
                                 context={"principal": "alice"})
    return _ReadRuntime(access_context="assistants.read", user=identity, store=None)


def test_the_factory_binds_the_authenticated_user_only_for_runs(state, monkeypatch):
    monkeypatch.setattr(langgraph_graph, "shared_state", lambda: state)
    forged = state.runner.context_for("alice")
    graph = asyncio.run(make_graph(_runtime(_ExecutionRuntime, "bob")))
    assert "salaries" not in _docs(graph.invoke(SALARY, context=forged))
    alice = asyncio.run(make_graph(_runtime(_ExecutionRuntime, "alice")))
    assert "salaries" in _docs(alice.invoke(SALARY))
    read = asyncio.run(make_graph(_runtime(_ReadRuntime, "bob")))
    assert read.get_graph().to_json() == graph.get_graph().to_json()  # Studio sees the same topology
    assert read.get_output_jsonschema() == graph.get_output_jsonschema()
    with pytest.raises(UnknownUserError):
        asyncio.run(make_graph(_runtime(_ExecutionRuntime, "mallory")))
    with pytest.raises(PermissionError):
        asyncio.run(make_graph(_runtime(_ExecutionRuntime, None)))


def _ctx(user: str, permissions: tuple[str, ...] = ()) -> Auth.types.AuthContext:
    return Auth.types.AuthContext(user=SimpleNamespace(identity=user), permissions=list(permissions),
                                  resource="threads", action="create_run")


def _scope(*headers: tuple[bytes, str]) -> dict:
    """An ASGI scope as the server passes it: the raw header list, repeated headers included."""
    return {"type": "http", "headers": [(name, value.encode()) for name, value in headers]}


def test_auth_handler_uses_the_same_credentials(state, monkeypatch):
    monkeypatch.setattr(langgraph_auth, "shared_state", lambda: state)
    user = asyncio.run(langgraph_auth.authenticate(_scope((b"x-api-key", KEYS["carol"]))))
    assert user == {"identity": "carol", "permissions": []}
    admin = asyncio.run(langgraph_auth.authenticate(_scope((b"x-api-key", KEYS["grace"]))))
    assert admin == {"identity": "grace", "permissions": [langgraph_auth.STATE_WRITER]}
    bearer = asyncio.run(langgraph_auth.authenticate(_scope((b"authorization", f"Bearer {KEYS['bob']}"))))
    assert bearer["identity"] == "bob"
    twice = [(b"authorization", f"Bearer {KEYS['bob']}"), (b"authorization", f"Bearer {KEYS['alice']}")]
    for headers in ([], [(b"x-api-key", "nope")], twice, [twice[0], twice[0]],
                    [(b"x-api-key", KEYS["carol"]), (b"x-api-key", KEYS["bob"])]):
        with pytest.raises(Auth.exceptions.HTTPException) as refused:
            asyncio.run(langgraph_auth.authenticate(_scope(*headers)))
        assert refused.value.status_code == 401


def test_auth_handlers_stamp_the_owner_and_refuse_client_context():
    value: dict = {"metadata": {"owner": "alice"}, "kwargs": {"context": {}, "input": {"question": "Who?"}}}
    assert asyncio.run(langgraph_auth.create_run(_ctx("bob"), value)) == {"owner": "bob"}
    assert value["metadata"]["owner"] == "bob"
    thread: dict = {"metadata": None}
    assert asyncio.run(langgraph_auth.create_thread(_ctx("bob"), thread)) == {"owner": "bob"}
    assert thread["metadata"] == {"owner": "bob"}
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        asyncio.run(langgraph_auth.create_run(_ctx("bob"), {"kwargs": {"context": {"principal": "alice"}}}))
    assert refused.value.status_code == 422
    assert asyncio.run(langgraph_auth.deny_everything_else(_ctx("bob"), {})) is False


def _refused(call) -> int:
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        asyncio.run(call)
    return refused.value.status_code


@pytest.mark.parametrize("kwargs, status", [
    ({"command": {"update": {"hops": -50}, "goto": "governor"}, "input": None}, 403),
    ({"command": {"resume": "x"}, "input": {"question": "Who?"}}, 403),
    ({"config": {"configurable": {"checkpoint_id": "1ef"}}, "input": {"question": "Who?"}}, 403),
    ({"input": {"question": "x" * 4001}}, 422),
    ({"input": {"question": "   "}}, 422),
    ({"input": {"question": 42}}, 422),
    ({"input": None}, 422),
    ({"input": "Who approves expenses?"}, 422),
])
def test_runs_that_write_state_or_break_the_question_rules_are_refused(kwargs, status):
    assert _refused(langgraph_auth.create_run(_ctx("bob"), {"kwargs": kwargs})) == status


def test_admins_may_send_commands_and_write_state():
    admin = _ctx("grace", (langgraph_auth.STATE_WRITER,))
    command = {"kwargs": {"command": {"resume": "x"}, "input": None}}
    assert asyncio.run(langgraph_auth.create_run(admin, command)) == {"owner": "grace"}
    assert asyncio.run(langgraph_auth.update_thread(admin, {"thread_id": "t"})) == {"owner": "grace"}
    assert _refused(langgraph_auth.create_run(admin, {"kwargs": {"input": {"question": "x" * 4001}}})) == 422


def test_thread_updates_a_state_write_for_admins_a_metadata_change_or_cancel_for_owners():
    bob = _ctx("bob")
    assert _refused(langgraph_auth.update_thread(bob, {"thread_id": "t"})) == 403  # POST /threads/{id}/state
    patch: dict = {"thread_id": "t", "metadata": {"owner": "alice", "tag": "x"}}
    assert asyncio.run(langgraph_auth.update_thread(bob, patch)) == {"owner": "bob"}
    assert patch["metadata"] == {"owner": "bob", "tag": "x"}
    cancel = {"thread_id": "t", "action": "interrupt", "metadata": {"run_ids": ["r"], "status": None}}
    assert asyncio.run(langgraph_auth.update_thread(bob, cancel)) == {"owner": "bob"}


HEAD = {"question": "Who is the Head of Finance?"}


def _served(state, limits: BudgetLimits, thread: str):
    """The loop as the LangGraph server runs it: a checkpointer of its own, one bound graph per run."""
    saver = InMemorySaver(serde=checkpoint_serde())
    runner = LoopRunner(resolver=state.resolver, backend=state.backend, encoder=state.encoder,
                        reasoner=state.reasoner, limits=limits)
    config = {"configurable": {"thread_id": thread}}
    return lambda: build_graph(checkpointer=saver, context=runner.context_for("bob"), served=True), config


def test_a_client_cannot_rewrite_the_budget_counters(state):
    """Issue 12's attack: `command.update` with negative counters, 1 hop and 2 searches allowed."""
    limits = BudgetLimits(max_hops=1, max_retrieval_calls=2)
    graph, config = _served(state, limits, "t1")
    attack = Command(update={**HEAD, "hops": -50, "retrieval_calls": -50, "tokens": -50}, goto="governor")
    try:
        result = graph().invoke(attack, config)
    except InvalidUpdateError:
        result = None  # refusing the write is as good as ignoring it
    if result is not None:
        usage = _result(result).usage
        assert 0 <= usage.hops <= 1 and 0 <= usage.retrieval_calls <= 2
    spans = graph().get_state(config).values.get("spans", [])
    assert all(0 <= s.usage.hops <= 1 and 0 <= s.usage.retrieval_calls <= 2 for s in spans)


def test_state_a_client_writes_cannot_skip_steps(state):
    """`POST /threads/T/state` before a run: the governor follows the run's ledger, never the state's next step."""
    graph, config = _served(state, BudgetLimits(max_hops=1, max_retrieval_calls=2), "t2")
    graph().update_state(config, {**HEAD, "next_step": "retrieve"}, as_node="plan")
    with pytest.raises(StepOrderError, match="after the start of a run"):
        graph().invoke(None, config)


def test_every_run_the_factory_compiles_starts_from_zero_usage(index, encoder, tmp_path, monkeypatch):
    one_hop = make_state(index, encoder, tmp_path, limits=BudgetLimits(max_hops=1))
    monkeypatch.setattr(langgraph_graph, "shared_state", lambda: one_hop)
    for _ in range(2):  # had the second run inherited the first one's hop, it could not search at all
        graph = asyncio.run(make_graph(_runtime(_ExecutionRuntime, "bob")))
        result = _result(graph.invoke(HEAD))
        assert result.usage.hops == 1 and result.complete and result.status == "answered"
