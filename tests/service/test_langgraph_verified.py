"""`langgraph dev`: only verified text reaches a client, and only while the caller may still read it (issue 31, item 6).

The server's reasoner is the LLM reasoner behind the scripted OpenAI stub, whose synthesise reply adds a claim the
verifier drops (`tests.test_unverified_drafts`). Non-admins may not interrupt a run or stream its raw events; an
admin's run stopped before verify holds no draft; after a group is revoked, the server's own state, history,
search, join and stream routes withhold what the owner can no longer read.
"""

from __future__ import annotations

import json
import os
import shutil
import time

import httpx
import pytest
from langgraph_sdk import get_sync_client

from boundloop.service.run_access import WITHHELD
from tests.llm.openai_stub import StubServer, schema_name
from tests.service.keys import KEYS, directory_with_keys, sha256
from tests.service.servers import REPO, free_port, running, server_env
from tests.test_unverified_drafts import MARKER, planting_model

pytestmark = pytest.mark.slow
QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}
SALARY = {"question": "What are the salary bands for level L5 engineers?"}
HANNA = "key-hanna-3c9e"  # in hr until a test takes the group away
EVERY_MODE = ["values", "updates", "debug", "tasks", "checkpoints", "custom", "messages"]


def _directory(hr: bool) -> dict:
    directory = directory_with_keys()
    directory["users"]["hanna"] = {"groups": ["all-staff", "hr"] if hr else ["all-staff"],
                                   "api_key_sha256": [sha256(HANNA)]}
    return directory


def _write(path, directory: dict) -> None:
    fresh = path.with_suffix(".tmp")
    fresh.write_text(json.dumps(directory))
    os.replace(fresh, path)


@pytest.fixture(scope="module")
def server(tmp_path_factory, real_index_dir):
    folder = tmp_path_factory.mktemp("langgraph-verified")
    shutil.copytree(real_index_dir, folder / "index")
    _write(folder / "directory.json", _directory(hr=True))
    with StubServer(responder=planting_model) as model:
        env = server_env(BOUNDLOOP_INDEX=str(folder / "index"), BOUNDLOOP_DIRECTORY=str(folder / "directory.json"),
                         BOUNDLOOP_MODEL="openai:stub", BOUNDLOOP_OPENAI_BASE_URL=model.url,
                         OPENAI_API_KEY="not-used")
        port = free_port()
        args = ["-m", "langgraph_cli", "dev", "--config", str(REPO / "langgraph.json"), "--no-browser",
                "--no-reload", "--host", "127.0.0.1", "--port", str(port)]
        with running(args, env, "/ok", port, folder / "server.log", cwd=folder) as base:
            yield base, model, folder / "directory.json"


def _client(base: str, user: str):
    return get_sync_client(url=base, api_key=HANNA if user == "hanna" else KEYS[user], timeout=120)


def _drafts(model: StubServer) -> int:
    return sum(schema_name(seen.body) == "Answer" for seen in model.seen)


def _status(call, *args, **kwargs) -> int:
    try:
        call(*args, **kwargs)
    except httpx.HTTPStatusError as refused:
        return refused.response.status_code
    return 200


def test_no_client_reads_a_claim_the_verifier_dropped(server):
    base, model, _ = server
    bob = _client(base, "bob")
    thread = bob.threads.create()["thread_id"]
    drafted = _drafts(model)
    parts = [[part.event, part.data] for part in bob.runs.stream(thread, "boundloop", input=QUESTION,
                                                                   stream_mode=EVERY_MODE)]
    assert _drafts(model) == drafted + 1  # the model drafted the planted claim in this run
    assert {"values", "updates", "debug", "tasks", "checkpoints"} <= {event for event, _ in parts}
    state = bob.threads.get_state(thread)["values"]
    assert state["status"] == "answered" and state["dropped_claims"] == 1 and state["verified"]
    assert not {"draft", "verdicts", "draft_conflicts"} & set(state)
    history = bob.threads.get_history(thread, limit=100)
    assert len(history) > 10  # a checkpoint after every step: the draft was in none of them
    again = bob.runs.wait(thread, "boundloop", input=QUESTION)
    assert again["dropped_claims"] == 1
    assert MARKER not in json.dumps([parts, state, history, again])


def test_only_admins_may_interrupt_a_run_and_an_interrupted_run_holds_no_draft(server):
    base, model, _ = server
    bob, grace = _client(base, "bob"), _client(base, "grace")
    thread = bob.threads.create()["thread_id"]
    for options in ({"interrupt_before": ["verify"]}, {"interrupt_after": ["synthesise"]}, {"interrupt_before": "*"}):
        assert _status(bob.runs.wait, thread, "boundloop", input=QUESTION, **options) == 403
    assert _status(lambda: list(bob.runs.stream(thread, "boundloop", input=QUESTION, stream_mode="events"))) == 403
    assert bob.threads.get_state(thread)["values"] == {}  # nothing ran

    own = grace.threads.create()["thread_id"]
    drafted = _drafts(model)
    grace.runs.wait(own, "boundloop", input=QUESTION, interrupt_before=["verify"])
    stopped = grace.threads.get_state(own)
    assert stopped["next"] == ["verify"] and _drafts(model) == drafted + 1
    assert not stopped["values"].get("verified") and stopped["values"].get("short_answer") is None
    assert MARKER not in json.dumps([stopped, grace.threads.get_history(own, limit=100)])


def test_the_servers_reads_withhold_what_a_revoked_owner_can_no_longer_read(server):
    base, _, directory = server
    hanna = _client(base, "hanna")
    salary = hanna.threads.create()["thread_id"]
    run = hanna.runs.wait(salary, "boundloop", input=SALARY)
    assert "salaries" in {c["doc_id"] for c in run["citations"]}
    assert "CANARY-HR" in json.dumps(hanna.threads.get_state(salary))

    _write(directory, _directory(hr=False))
    deadline = time.monotonic() + 10
    while _status(hanna.threads.get_state, salary) != 403:
        assert time.monotonic() < deadline, "the revocation never reached the state route"
        time.sleep(0.2)
    later = hanna.threads.create()["thread_id"]  # read with her access as it is now
    hanna.runs.wait(later, "boundloop", input=QUESTION)
    headers = {"X-API-Key": HANNA}
    for path in (f"/threads/{salary}/state", f"/threads/{salary}", f"/threads/{salary}/runs/{run['run_id']}/join"):
        refused = httpx.get(base + path, headers=headers)
        assert refused.status_code == 403 and refused.json() == {"detail": WITHHELD}, path
    history = hanna.threads.get_history(salary, limit=100)
    assert history and any(item.get("withheld") for item in history)
    found = {t["thread_id"]: t for t in hanna.threads.search(limit=100)}
    assert found[salary]["values"] == {} and found[salary]["withheld"]
    assert found[later]["values"]["status"] == "answered" and "withheld" not in found[later]  # hers to read
    assert hanna.threads.get_state(later)["values"]["citations"]
    # A new question on the old thread: its answer is hers (the values stream is the output's, RunResult's fields),
    # but the checkpoints the server streams hold the thread's state, and with it the old turn.
    assert hanna.runs.wait(salary, "boundloop", input=QUESTION)["status"] == "answered"
    answer = [[p.event, p.data] for p in hanna.runs.stream(salary, "boundloop", input=QUESTION, stream_mode="values")]
    assert answer[-1][1]["status"] == "answered"
    parts = [[p.event, p.data] for p in hanna.runs.stream(salary, "boundloop", input=QUESTION,
                                                           stream_mode=["values", "checkpoints"])]
    assert parts[-1] == ["error", {"error": "Forbidden", "message": WITHHELD}]
    assert "CANARY-HR" not in json.dumps([history, list(found.values()), parts])

    _write(directory, _directory(hr=True))  # the group comes back: so does the thread
    deadline = time.monotonic() + 10
    while _status(hanna.threads.get_state, salary) != 200:
        assert time.monotonic() < deadline, "the restored group never reached the state route"
        time.sleep(0.2)
