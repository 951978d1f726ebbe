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


def _ctx(user: str) -> Auth.types.AuthContext:
    return Auth.types.AuthContext(user=SimpleNamespace(identity=user), permissions=[], resource="threads",
                                  action="create_run")


def test_auth_handler_uses_the_same_credentials(state, monkeypatch):
    monkeypatch.setattr(langgraph_auth, "shared_state", lambda: state)
    user = asyncio.run(langgraph_auth.authenticate({b"x-api-key": KEYS["carol"].encode()}))
    assert user == {"identity": "carol", "permissions": []}
    bearer = asyncio.run(langgraph_auth.authenticate({b"authorization": f"Bearer {KEYS['bob']}".encode()}))
    assert bearer["identity"] == "bob"
    for headers in ({}, {b"x-api-key": b"nope"}):
        with pytest.raises(Auth.exceptions.HTTPException) as refused:
            asyncio.run(langgraph_auth.authenticate(headers))
        assert refused.value.status_code == 401


def test_auth_handlers_stamp_the_owner_and_refuse_client_context():
    value: dict = {"metadata": {"owner": "alice"}, "kwargs": {"context": {}}}
    assert asyncio.run(langgraph_auth.create_run(_ctx("bob"), value)) == {"owner": "bob"}
    assert value["metadata"]["owner"] == "bob"
    thread: dict = {"metadata": None}
    assert asyncio.run(langgraph_auth.create_thread(_ctx("bob"), thread)) == {"owner": "bob"}
    assert thread["metadata"] == {"owner": "bob"}
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        asyncio.run(langgraph_auth.create_run(_ctx("bob"), {"kwargs": {"context": {"principal": "alice"}}}))
    assert refused.value.status_code == 422
    assert asyncio.run(langgraph_auth.deny_everything_else(_ctx("bob"), {})) is False
