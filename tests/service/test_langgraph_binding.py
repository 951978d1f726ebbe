"""The LangGraph server's graph and auth, without a server: the run context is bound from the identity alone."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from langgraph_sdk import Auth
from langgraph_sdk.runtime import _ExecutionRuntime, _ReadRuntime

from graph.builder import build_graph
from policies.errors import UnknownUserError
from service import langgraph_auth, langgraph_graph
from service.langgraph_graph import CallerBoundGraph, bind_context, make_graph
from tests.service.keys import KEYS

SALARY = {"question": "What are the salary bands for level L5 engineers?"}


def _docs(result: dict) -> set[str]:
    return {c["doc_id"] for c in result["citations"]} | {r["doc_id"] for r in result["fallback_results"]}


@pytest.fixture
def bob_graph(state) -> CallerBoundGraph:
    return bind_context(build_graph(), state.runner.context_for("bob"))


def test_every_execution_path_ignores_a_context_the_caller_passes(bob_graph, state):
    forged = state.runner.context_for("alice")
    assert "salaries" in _docs(build_graph().invoke(SALARY, context=forged))  # the forged context is real
    assert "salaries" not in _docs(bob_graph.invoke(SALARY, context=forged))
    assert "salaries" not in _docs(bob_graph.copy().invoke(SALARY, context=forged))
    streamed = list(bob_graph.stream(SALARY, context=forged, stream_mode="values"))[-1]
    assert "salaries" not in _docs(streamed)

    async def async_paths() -> list[dict]:
        results = [await bob_graph.ainvoke(SALARY, context=forged)]
        results.append([c async for c in bob_graph.astream(SALARY, context=forged, stream_mode="values")][-1])
        events = [e async for e in bob_graph.astream_events(SALARY, context=forged, version="v2")]
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
    graph = asyncio.run(make_graph(_runtime(_ExecutionRuntime, "bob")))
    assert isinstance(graph, CallerBoundGraph) and graph.bound_context.principal.user_id == "bob"
    read = asyncio.run(make_graph(_runtime(_ReadRuntime, "bob")))
    assert not isinstance(read, CallerBoundGraph)
    assert set(read.get_graph().nodes) == set(graph.get_graph().nodes)  # Studio sees the same topology
    with pytest.raises(UnknownUserError):
        asyncio.run(make_graph(_runtime(_ExecutionRuntime, "mallory")))
    with pytest.raises(PermissionError):
        asyncio.run(make_graph(_runtime(_ExecutionRuntime, None)))


def _ctx(user: str, permissions: tuple[str, ...] = ()) -> Auth.types.AuthContext:
    return Auth.types.AuthContext(user=SimpleNamespace(identity=user), permissions=list(permissions),
                                  resource="threads", action="create_run")


def test_auth_handler_uses_the_same_credentials(state, monkeypatch):
    monkeypatch.setattr(langgraph_auth, "shared_state", lambda: state)
    user = asyncio.run(langgraph_auth.authenticate({b"x-api-key": KEYS["carol"].encode()}))
    assert user == {"identity": "carol", "permissions": []}
    admin = asyncio.run(langgraph_auth.authenticate({b"x-api-key": KEYS["grace"].encode()}))
    assert admin == {"identity": "grace", "permissions": [langgraph_auth.STATE_WRITER]}
    bearer = asyncio.run(langgraph_auth.authenticate({b"authorization": f"Bearer {KEYS['bob']}".encode()}))
    assert bearer["identity"] == "bob"
    for headers in ({}, {b"x-api-key": b"nope"}):
        with pytest.raises(Auth.exceptions.HTTPException) as refused:
            asyncio.run(langgraph_auth.authenticate(headers))
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
