"""`langgraph dev` smoke test: the LangGraph server starts offline, serves the graph to API-key users, keeps
threads apart, builds the principal only from the credential, and mounts the FastAPI routes."""

from __future__ import annotations

import shutil

import httpx
import pytest
from langgraph_sdk import get_sync_client

from boundloop.domain.result import RunResult
from tests.service.keys import KEYS, auth
from tests.service.servers import REPO, free_port, running, server_env

pytestmark = pytest.mark.slow
SALARY = {"question": "What are the salary bands for level L5 engineers?"}


@pytest.fixture(scope="module")
def server(tmp_path_factory, real_index_dir, keyed_directory):
    folder = tmp_path_factory.mktemp("langgraph-dev")  # `langgraph dev` keeps its in-memory store here
    shutil.copytree(real_index_dir, folder / "index")
    env = server_env(BOUNDLOOP_INDEX=str(folder / "index"), BOUNDLOOP_DIRECTORY=str(keyed_directory))
    port = free_port()
    args = ["-m", "langgraph_cli", "dev", "--config", str(REPO / "langgraph.json"), "--no-browser", "--no-reload",
            "--host", "127.0.0.1", "--port", str(port)]
    with running(args, env, "/ok", port, folder / "server.log", cwd=folder) as base:
        yield base


def _client(base: str, user: str):
    return get_sync_client(url=base, api_key=KEYS[user], timeout=120)


def test_a_run_with_an_api_key_returns_the_ask_json_shape(server):
    assert httpx.post(server + "/threads", json={}).status_code == 401
    bob = _client(server, "bob")
    thread = bob.threads.create(metadata={"owner": "alice"})
    assert thread["metadata"]["owner"] == "bob"  # the owner comes from the credential
    result = bob.runs.wait(thread["thread_id"], "boundloop",
                           input={"question": "Who approves expense claims above EUR 5,000?"})
    assert set(result) == set(RunResult.model_fields)
    assert result["status"] == "answered" and result["conversation_id"] == thread["thread_id"]
    [run] = bob.runs.list(thread["thread_id"])  # a thread is a conversation; each run is a turn of its own
    assert result["run_id"] == run["run_id"]
    assert result["citations"][0]["doc_id"] == "expense"


def test_each_run_on_a_thread_answers_its_own_question(server):
    """A question, an unrelated question and an ellipsis follow-up on one thread: each gets its own answer."""
    bob = _client(server, "bob")
    thread = bob.threads.create()["thread_id"]
    first = bob.runs.wait(thread, "boundloop", input={"question": "Who approves expense claims above EUR 5,000?"})
    updates = list(bob.runs.stream(thread, "boundloop", input={"question": "Who is the Head of People?"},
                                   stream_mode="updates"))
    second = bob.threads.get_state(thread)["values"]
    third = bob.runs.wait(thread, "boundloop", input={"question": "And the Head of Finance?"})
    assert first["short_answer"] == "Head of Finance" and first["standalone_question"].startswith("Who approves")
    nodes = [node for part in updates if part.event == "updates" for node in part.data]
    assert {"intake", "resolve", "understand", "retrieve", "respond"} <= set(nodes)  # not just the governor
    assert "Tomas Berg" in second["answer"] and second["standalone_question"] == "Who is the Head of People?"
    assert third["standalone_question"] == "Who is the Head of Finance?" and third["short_answer"] == "Priya Raman"
    assert len({first["run_id"], second["run_id"], third["run_id"]}) == 3
    assert {first["conversation_id"], third["conversation_id"]} == {thread}
    state = bob.threads.get_state(thread)["values"]  # what Studio shows: the turns, and this question's trace
    assert [t["question"] for t in state["turns"]] == [
        "Who approves expense claims above EUR 5,000?", "Who is the Head of People?", "And the Head of Finance?"]
    assert [t["standalone_question"] for t in state["turns"]][-1] == "Who is the Head of Finance?"
    assert [s["node"] for s in state["spans"]][:2] == ["governor", "resolve"]
    assert state["spans"][0]["usage"]["tokens"] == 0  # budgets per turn: each run starts from zero


def test_threads_belong_to_their_owner(server):
    bob, alice = _client(server, "bob"), _client(server, "alice")
    thread = bob.threads.create()
    bob.runs.wait(thread["thread_id"], "boundloop", input={"question": "Who is the Head of People?"})
    assert thread["thread_id"] not in {t["thread_id"] for t in alice.threads.search(limit=100)}
    for call in (lambda: alice.threads.get(thread["thread_id"]),
                 lambda: alice.threads.get_state(thread["thread_id"]),
                 lambda: alice.runs.wait(thread["thread_id"], "boundloop", input={"question": "hi"})):
        with pytest.raises(httpx.HTTPStatusError) as refused:
            call()
        assert refused.value.response.status_code == 404


def test_a_credential_header_sent_twice_is_refused(server):
    """The server's `headers` argument keeps one copy of a repeated header; the handler reads the scope's list."""
    twice = [("Authorization", f"Bearer {KEYS['bob']}"), ("Authorization", f"Bearer {KEYS['alice']}")]
    refused = httpx.post(server + "/threads/search", json={}, headers=twice)
    assert refused.status_code == 401 and "sent 2 times" in refused.text
    assert httpx.post(server + "/threads/search", json={}, headers=twice[:1]).status_code == 200
    assert httpx.post(server + "/ask", json=SALARY, headers=twice).status_code == 401  # the mounted FastAPI routes


def test_the_principal_comes_only_from_the_credential(server):
    bob, alice = _client(server, "bob"), _client(server, "alice")
    assert "salaries" in {c["doc_id"] for c in alice.runs.wait(None, "boundloop", input=SALARY)["citations"]}
    # The server overwrites its reserved key with the authenticated user; the run still acts for bob.
    spoofed = bob.runs.wait(None, "boundloop", input=SALARY, config={"configurable": {"langgraph_auth_user": "alice"}})
    assert spoofed["status"] != "error" and "salaries" not in str(spoofed) and "CANARY-HR" not in str(spoofed)
    for attempt in ({"context": {"principal": "alice"}}, {"config": {"configurable": {"user": "alice"}}}):
        with pytest.raises(httpx.HTTPStatusError) as refused:
            bob.runs.wait(None, "boundloop", input=SALARY, **attempt)
        assert refused.value.response.status_code == 422
    # Input keys other than `question` are not channels of the graph: ignored, never a principal.
    extra_input = bob.runs.wait(None, "boundloop", input={**SALARY, "user": "alice", "principal": "alice"})
    assert "salaries" not in str(extra_input)


def test_the_fastapi_routes_are_mounted_on_the_same_server(server):
    response = httpx.post(server + "/ask", json={"question": "Who is the Head of People?"}, headers=auth("carol"))
    assert response.status_code == 200 and set(response.json()) == set(RunResult.model_fields)
    assert httpx.get(server + "/healthz").json()["status"] == "ok"
    assert "boundloop_runs_total" in httpx.get(server + "/metrics").text


def test_the_agent_to_agent_and_mcp_routes_are_off(server):
    """A2A task replies carry a thread's values as plain text, past the read guard's chunk check: no such routes."""
    headers = {"x-api-key": KEYS["bob"]}
    a2a = httpx.post(server + "/a2a/boundloop", json={"jsonrpc": "2.0", "id": 1, "method": "message/send",
                                                      "params": {}}, headers=headers)
    mcp = httpx.post(server + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=headers)
    assert a2a.status_code in (404, 405) and mcp.status_code in (404, 405)


def test_a_client_cannot_rewrite_the_budget_counters(server):
    """Issue 12's attack on the real server: a `command.update` with negative counters."""
    bob = _client(server, "bob")
    thread = bob.threads.create()
    attack = {"update": {"question": "Who approves expense claims above EUR 5,000?", "hops": -50,
                         "retrieval_calls": -50, "tokens": -50}, "goto": "governor"}
    try:
        result = bob.runs.wait(thread["thread_id"], "boundloop", command=attack)
    except httpx.HTTPStatusError as refused:  # refusing the command outright is as good
        assert 400 <= refused.response.status_code < 500
        return
    usage = result["usage"]
    assert 0 <= usage["hops"] <= 3 and 0 <= usage["retrieval_calls"] <= 6 and usage["tokens"] >= 0
    spans = bob.threads.get_state(thread["thread_id"])["values"]["spans"]
    assert all(s["usage"]["hops"] >= 0 and s["usage"]["retrieval_calls"] >= 0 for s in spans)
