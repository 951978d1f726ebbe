"""The red-team attack table (issue 12), run against a real `boundloop serve --workers 2` and a real `langgraph dev`.

Each row is an attack that once worked; each test replays it against both servers and checks it is refused. Both
servers read a directory file of their own, which the revocation rows edit while the servers run. Rate limits are
on (30 requests a minute per credential); the rows that are not about them use few requests per key.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import jwt
import pytest
from langgraph_sdk import get_sync_client

from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.retrieval.sqlite_index import SqliteIndex
from tests.conftest import DOCS
from tests.service.keys import JWT_SECRET, KEYS, directory_with_keys, sha256
from tests.service.servers import REPO, free_port, running, server_env
from tests.test_planted_instructions import PLANTED_DOCS

pytestmark = pytest.mark.slow
TARGETS = ["serve", "langgraph"]
EXTRA_KEYS = {  # users the attacks change or spend; each row has its own
    "rita": "key-rita-77aa",  # hr until the revocation row removes it
    "dave": "key-dave-13bd",  # deleted by the revocation row
    "dot": "key.dot.with-two.dots",  # an API key that looks like a JWT
    "rate": "key-rate-55ee",  # spent by the rate-limit row
}
SALARY = {"question": "What are the salary bands for level L5 engineers?"}
RELOAD_DEADLINE_S = 10.0


def headers(user: str) -> dict[str, str]:
    return {"X-API-Key": {**KEYS, **EXTRA_KEYS}[user]}


def directory() -> dict:
    users = directory_with_keys()["users"]
    users["rita"] = {"groups": ["all-staff", "hr"], "api_key_sha256": [sha256(EXTRA_KEYS["rita"])]}
    users["dave"] = {"groups": ["all-staff"], "api_key_sha256": [sha256(EXTRA_KEYS["dave"])]}
    users["dot"] = {"groups": ["all-staff"], "api_key_sha256": [sha256(EXTRA_KEYS["dot"])]}
    users["rate"] = {"groups": ["all-staff"], "api_key_sha256": [sha256(EXTRA_KEYS["rate"])]}
    return {"users": users}


def rewrite(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data["users"])
    fresh = path.with_suffix(".tmp")
    fresh.write_text(json.dumps(data))
    os.replace(fresh, path)


@pytest.fixture(scope="module")
def red_index(tmp_path_factory, real_encoder) -> Path:
    """The small test corpus plus the planted-instruction documents, with the real encoder."""
    folder = tmp_path_factory.mktemp("red-index")
    (folder / "docs.jsonl").write_text("".join(json.dumps(d) + "\n" for d in DOCS + PLANTED_DOCS))
    index = SqliteIndex(folder / "index", create=True)
    try:
        ingest(index, real_encoder, load_jsonl(folder / "docs.jsonl"), show_progress=False)
    finally:
        index.close()
    return folder / "index"


class Target:
    """One running server: its base URL, its directory file and its index folder."""

    def __init__(self, kind: str, base: str, directory: Path, index: Path) -> None:
        self.kind, self.base, self.directory, self.index = kind, base, directory, index

    def ask(self, user: str, question: str) -> httpx.Response:
        return httpx.post(self.base + "/ask", json={"question": question}, headers=headers(user), timeout=120)

    def sdk(self, user: str):
        return get_sync_client(url=self.base, api_key={**KEYS, **EXTRA_KEYS}[user], timeout=120)


@pytest.fixture(scope="module", params=TARGETS)
def target(request, tmp_path_factory, red_index) -> Iterator[Target]:
    folder = tmp_path_factory.mktemp(f"red-{request.param}")
    shutil.copytree(red_index, folder / "index")
    path = folder / "directory.json"
    path.write_text(json.dumps(directory()))
    env = server_env(BOUNDLOOP_INDEX=str(folder / "index"), BOUNDLOOP_DIRECTORY=str(path),
                     BOUNDLOOP_JWT_SECRET=JWT_SECRET, BOUNDLOOP_RATE_PER_KEY="30/minute")
    port = free_port()
    if request.param == "serve":
        args = ["-m", "boundloop", "serve", "--port", str(port), "--workers", "2", "--log-level", "warning"]
        context = running(args, env, "/healthz", port, folder / "server.log")
    else:
        args = ["-m", "langgraph_cli", "dev", "--config", str(REPO / "langgraph.json"), "--no-browser",
                "--no-reload", "--host", "127.0.0.1", "--port", str(port)]
        context = running(args, env, "/ok", port, folder / "server.log", cwd=folder)
    with context as base:
        yield Target(request.param, base, path, folder / "index")


def eventually(check, deadline_s: float = RELOAD_DEADLINE_S) -> float:
    """Seconds until `check()` held; fails the test if it never did."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < deadline_s, "the change never took effect"
        time.sleep(0.2)
    return time.monotonic() - started


# 1. Revocation needed a restart.

def test_a_removed_group_takes_effect_without_restart_and_withholds_stored_runs(target):
    first = target.ask("rita", SALARY["question"])
    assert "salaries" in {c["doc_id"] for c in first.json()["citations"]}
    run_id = first.json()["run_id"]
    rewrite(target.directory, lambda users: users["rita"].update(groups=["all-staff"]))

    def no_salaries() -> bool:  # every worker must have reloaded: several tries, fresh connections
        answers = [target.ask("rita", SALARY["question"]) for _ in range(4)]
        return all("salaries" not in a.text and "CANARY-HR" not in a.text for a in answers)

    eventually(no_salaries)
    withheld = httpx.get(f"{target.base}/runs/{run_id}", headers=headers("rita"))
    assert withheld.status_code == 403 and "CANARY-HR" not in withheld.text
    if target.kind == "langgraph":
        run = target.sdk("rita").runs.wait(None, "boundloop", input=SALARY)
        assert "salaries" not in json.dumps(run) and "CANARY-HR" not in json.dumps(run)


def test_a_deleted_user_is_refused_without_restart(target):
    token = jwt.encode({"sub": "dave", "exp": int(time.time()) + 600}, JWT_SECRET, algorithm="HS256")
    assert target.ask("dave", "Who is the Head of People?").status_code == 200
    rewrite(target.directory, lambda users: users.pop("dave"))
    # a refused key costs 10 of its 30 tokens a minute: a few tries, not more
    eventually(lambda: target.ask("dave", "Who is the Head of People?").status_code == 401)
    time.sleep(1.5)  # every worker's watcher has checked the file by now
    assert target.ask("dave", "Who is the Head of People?").status_code == 401
    assert httpx.post(target.base + "/ask", json=SALARY, headers={"Authorization": f"Bearer {token}"}).status_code \
        == 401
    if target.kind == "langgraph":
        assert httpx.post(target.base + "/threads", json={}, headers=headers("dave")).status_code == 401


def test_a_broken_directory_keeps_the_last_good_one(target):
    before = target.directory.read_text()
    target.directory.write_text("{ this is not json")
    try:
        time.sleep(2.5)  # two checks at least
        assert target.ask("carol", "Who is the Head of People?").status_code == 200
    finally:
        target.directory.write_text(before)


# 2. LangGraph clients could rewrite the budget counters.

def test_clients_cannot_rewrite_budget_counters(target):
    if target.kind == "serve":  # the HTTP contract has no field for them: a body carrying one is refused
        body = {**SALARY, "hops": -50, "retrieval_calls": -50}
        assert httpx.post(target.base + "/ask", json=body, headers=headers("bob")).status_code == 422
        return
    bob = target.sdk("bob")
    thread = bob.threads.create()["thread_id"]
    bob.runs.wait(thread, "boundloop", input={"question": "Who approves expense claims above EUR 5,000?"})
    attacks = [
        lambda: bob.runs.wait(thread, "boundloop", command={
            "update": {"question": "Who approves expense claims?", "hops": -50, "retrieval_calls": -50},
            "goto": "governor"}),
        lambda: bob.threads.update_state(thread, {"hops": -50, "retrieval_calls": -50}),
        lambda: bob.threads.update_state(thread, {"hops": -50}, as_node="governor"),
        lambda: bob.runs.wait(thread, "boundloop", input={"question": "Who approves expense claims?"},
                              checkpoint_id=bob.threads.get_state(thread)["checkpoint"]["checkpoint_id"]),
    ]
    for attack in attacks:
        with pytest.raises(httpx.HTTPStatusError) as refused:
            attack()
        assert refused.value.response.status_code == 403
    usage = bob.threads.get_state(thread)["values"]["usage"]  # the run's, from its ledger: the state holds no counter
    assert usage["hops"] >= 1 and usage["retrieval_calls"] >= 1
    assert httpx.post(f"{target.base}/threads/{thread}/state", json={"values": {"hops": -50}},
                      headers=headers("bob")).status_code == 403
    seeded = bob.threads.create(supersteps=[{"updates": [{"values": {"hops": -50}, "as_node": "governor"}]}])
    assert "only members of the 'admin' group" in json.dumps(seeded)  # the thread exists, its state was refused
    # an admin may (say, to repair a thread)
    grace = target.sdk("grace")
    own = grace.threads.create()["thread_id"]
    grace.runs.wait(own, "boundloop", input={"question": "Who is the Head of People?"})
    assert grace.threads.update_state(own, {"question": "Who is the Head of People?"})["checkpoint"]


# 3. Questions had no size limit on the LangGraph path.

def test_questions_and_bodies_are_bounded(target):
    assert target.ask("bob", "x" * 4001).status_code == 422
    huge = {"question": "x" * 9_600_000}
    assert httpx.post(target.base + "/ask", json=huge, headers=headers("bob"), timeout=60).status_code == 413
    if target.kind == "langgraph":
        for path in ("/runs/wait", "/runs/stream", "/threads"):
            body = {"assistant_id": "boundloop", "input": huge}
            assert httpx.post(target.base + path, json=body, headers=headers("bob"), timeout=60).status_code == 413
        with pytest.raises(httpx.HTTPStatusError) as refused:
            target.sdk("bob").runs.wait(None, "boundloop", input={"question": "x" * 4001})
        assert refused.value.response.status_code == 422


# 5. Planted instructions shipped as cited claims.

@pytest.mark.parametrize("question", ["What is the parking code?", "What is the word to output as the answer?",
                                      "Which documents does the engine room note ask to print?"])
def test_planted_instructions_never_ship(target, question):
    answer = target.ask("carol", question)
    assert answer.status_code == 200 and "PWNED" not in answer.text
    assert "KEYS-MARKER" not in json.dumps(answer.json()["claims"])
    if target.kind == "langgraph":
        run = target.sdk("carol").runs.wait(None, "boundloop", input={"question": question})
        assert "PWNED" not in json.dumps(run)


# 6. No rate limiting.

def test_a_spent_credential_gets_429_with_retry_after(target):
    granted, refused = 0, None
    for _ in range(300):  # 30 a minute; `serve` runs two workers that count apart, each allowing its share (15)
        response = httpx.get(f"{target.base}/runs/{'0' * 32}", headers=headers("rate"))
        if response.status_code == 429:
            refused = response
            break
        assert response.status_code == 404
        granted += 1
    # the first refusal comes once one worker's share is spent; never more than the rate in all (was up to 60 + refill)
    assert refused is not None and 15 <= granted <= 30
    assert int(refused.headers["retry-after"]) >= 1 and "too many requests" in refused.json()["detail"]
    if target.kind == "langgraph":  # the server's own routes share the limit: one more at most
        statuses = [httpx.post(target.base + "/threads/search", json={}, headers=headers("rate")).status_code
                    for _ in range(5)]
        assert 429 in statuses


def test_failed_authentications_are_counted(target):
    """A refused key costs 10 of its 30 a minute: the 4th guess is refused unread (by then, with two workers)."""
    wrong = {"X-API-Key": "guessed-key-1"}
    statuses = []
    while 429 not in statuses and len(statuses) < 30:
        statuses.append(httpx.get(f"{target.base}/runs/{'0' * 32}", headers=wrong).status_code)
    assert set(statuses[:-1]) == {401} and statuses[-1] == 429
    assert len(statuses) <= (7 if target.kind == "serve" else 4)


# 7. The published demo keys were accepted.

def test_the_published_demo_keys_are_not_accepted(target):
    assert httpx.post(target.base + "/ask", json=SALARY, headers={"X-API-Key": "demo-key-alice"}).status_code == 401


# 8. CORS answered any origin; databases were world-readable.

def test_cross_origin_requests_from_other_sites_are_not_allowed(target):
    preflight = {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "x-api-key"}
    response = httpx.options(target.base + "/threads", headers=preflight)
    assert "access-control-allow-origin" not in response.headers
    simple = httpx.get(target.base + "/healthz", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in simple.headers
    if target.kind == "langgraph":
        studio = httpx.options(target.base + "/threads", headers={**preflight, "Origin": "https://smith.langchain.com"})
        assert studio.headers["access-control-allow-origin"] == "https://smith.langchain.com"


def test_index_and_run_databases_are_owner_only(target):
    assert target.ask("bob", "Who is the Head of People?").status_code == 200
    assert stat.S_IMODE(target.index.stat().st_mode) == 0o700
    files = [p for p in target.index.iterdir() if p.name.startswith(("index.db", "runs.db"))]
    assert {p.name for p in files} >= {"index.db", "runs.db"}
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in files} == {p.name: 0o600 for p in files}


# 9. JWTs of any lifetime were accepted.

def test_a_long_lived_jwt_is_refused(target):
    month = jwt.encode({"sub": "bob", "exp": int(time.time()) + 30 * 86400}, JWT_SECRET, algorithm="HS256")
    day = jwt.encode({"sub": "bob", "exp": int(time.time()) + 3600}, JWT_SECRET, algorithm="HS256")
    assert httpx.post(target.base + "/ask", json=SALARY, headers={"Authorization": f"Bearer {month}"}).status_code \
        == 401
    assert httpx.post(target.base + "/ask", json=SALARY, headers={"Authorization": f"Bearer {day}"}).status_code \
        == 200


# 10. Smaller items: API keys with dots, the schemas route.

def test_an_api_key_with_dots_works(target):
    assert target.ask("dot", "Who is the Head of People?").status_code == 200
    if target.kind == "langgraph":
        assert target.sdk("dot").threads.create()["metadata"]["owner"] == "dot"


def test_the_schemas_describe_the_graph(target):
    if target.kind == "serve":
        assert httpx.get(target.base + "/openapi.json").status_code == 200
        return
    assistant = target.sdk("bob").assistants.search()[0]["assistant_id"]
    schemas = httpx.get(f"{target.base}/assistants/{assistant}/schemas", headers=headers("bob"))
    assert schemas.status_code == 200
    assert schemas.json()["input_schema"]["required"] == ["question"]


# 11. Another user's thread by id (red-team pass, 2026-12): its event streams, a copy, a create that finds it.

def _listen_sse(url: str, user: str, seen: list[bytes]) -> None:
    """Everything a thread's event stream sends `user` until it ends or goes quiet (a daemon thread's body)."""
    body = {"channels": ["values", "updates", "lifecycle", "messages", "custom", "tools"]}
    try:
        with httpx.stream("POST", url, json=body, headers=headers(user), timeout=httpx.Timeout(30, read=30)) as sse:
            seen.append(str(sse.status_code).encode())
            for chunk in sse.iter_bytes():
                seen.append(chunk)
    except httpx.HTTPError:
        pass


async def _listen_socket(url: str, user: str, seen: list[str]) -> None:
    websockets = pytest.importorskip("websockets")
    try:
        async with websockets.connect(url, additional_headers=headers(user)) as socket:
            await socket.send(json.dumps({"id": 1, "method": "subscription.subscribe",
                                          "params": {"channels": ["values", "updates", "lifecycle"]}}))
            while True:
                seen.append(str(await asyncio.wait_for(socket.recv(), 30)))
    except (websockets.ConnectionClosed, TimeoutError, OSError):
        pass


def test_another_users_thread_streams_copies_and_creates_show_nothing(target):
    """bob knows alice's thread id: joining its event stream (SSE or WebSocket) while she asks, copying it, creating
    it 'if it does not exist' or starting a run on it through the event-streaming commands shows him nothing."""
    if target.kind == "serve":  # threads are the LangGraph server's
        return
    thread = target.sdk("alice").threads.create()["thread_id"]
    sse: list[bytes] = []
    socket: list[str] = []
    listener = threading.Thread(target=_listen_sse, args=(f"{target.base}/threads/{thread}/stream/events", "bob", sse),
                                daemon=True)
    listener.start()
    ws_url = target.base.replace("http://", "ws://") + f"/threads/{thread}/stream/events"
    ws_loop = threading.Thread(target=lambda: asyncio.run(_listen_socket(ws_url, "bob", socket)), daemon=True)
    ws_loop.start()
    time.sleep(2)  # both listeners have joined before the run starts
    run = target.sdk("alice").runs.wait(thread, "boundloop", input=SALARY)
    assert "CANARY-HR" in json.dumps(run)  # the run showed alice the secret bob must not see
    time.sleep(3)
    heard = b"".join(sse).decode(errors="replace") + "".join(socket)
    assert "CANARY-HR" not in heard and "salaries" not in heard and "salary bands" not in heard.lower()
    attempts = [
        httpx.post(f"{target.base}/threads", json={"thread_id": thread, "if_exists": "do_nothing"},
                   headers=headers("bob")),
        httpx.post(f"{target.base}/threads/{thread}/copy", json={}, headers=headers("bob")),
        httpx.post(f"{target.base}/threads/{thread}/commands", headers=headers("bob"),
                   json={"id": 1, "method": "run.start", "params": {"assistant_id": "boundloop", "input": SALARY}}),
        httpx.get(f"{target.base}/threads/{thread}/stream", headers=headers("bob"), timeout=30),
    ]
    for response in attempts:
        assert "CANARY-HR" not in response.text and "salar" not in response.text.lower(), response.request.url
        assert response.status_code != 200 or "error" in response.text, response.request.url
    assert all(t["thread_id"] != thread for t in target.sdk("bob").threads.search())
