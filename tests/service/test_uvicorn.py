"""`boundloop serve --workers 2` as a real uvicorn process: SQLite and PostgreSQL run stores shared by both workers."""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.service.keys import auth
from tests.service.servers import free_port, running, server_env

pytestmark = pytest.mark.slow
QUESTIONS = ["Who approves expense claims above EUR 5,000?", "Where does Priya Raman sit?",
             "Who is the Head of People?", "Where are expense claims filed?"] * 3


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request, tmp_path_factory, real_index_dir, keyed_directory):
    """One server per run store, shared by this module's tests (starting two workers takes seconds)."""
    tmp_path = tmp_path_factory.mktemp(f"serve-{request.param}")
    index = tmp_path / "index"
    shutil.copytree(real_index_dir, index)
    env = server_env(BOUNDLOOP_INDEX=str(index), BOUNDLOOP_DIRECTORY=str(keyed_directory))
    if request.param == "postgres":
        from tests.service import postgres

        databases = postgres.fresh_database(request.getfixturevalue("postgres_server"))
        env["BOUNDLOOP_CHECKPOINT_URL"] = next(databases)
    port = free_port()
    args = ["-m", "boundloop", "serve", "--port", str(port), "--workers", "2", "--log-level", "warning",
            "--access-log", "json"]
    with running(args, env, "/healthz", port, tmp_path / "server.log") as base:
        yield request.param, base, tmp_path / "server.log"
    if request.param == "postgres":
        databases.close()


def test_two_workers_serve_runs_that_either_can_read_back(served):
    kind, base, log = served
    assert httpx.get(base + "/healthz").json()["checkpoints"] == kind
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(
            lambda q: httpx.post(base + "/ask", json={"question": q}, headers=auth("bob"), timeout=60), QUESTIONS))
    assert [r.status_code for r in results] == [200] * len(QUESTIONS)
    for response in results:
        run_id = response.json()["run_id"]
        # Fresh connections: the kernel spreads them over both workers.
        assert httpx.get(f"{base}/runs/{run_id}/trace", headers=auth("bob")).status_code == 200
        assert httpx.get(f"{base}/runs/{run_id}", headers=auth("bob")).json()["result"] == response.json()
        assert httpx.get(f"{base}/runs/{run_id}", headers=auth("alice")).status_code == 404
    metrics = httpx.get(base + "/metrics").text
    counted = sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
                  if line.startswith("boundloop_runs_total{"))
    assert counted == len(QUESTIONS)  # summed over both workers
    access = [json.loads(line) for line in log.read_text().splitlines() if line.startswith('{"time"')]
    asked = [a for a in access if (a["method"], a["route"], a["user"]) == ("POST", "/ask", "bob")]
    assert len(asked) == len(QUESTIONS) and all(a["status"] == 200 and a["ms"] > 0 for a in asked)
    assert any(a["route"] == "/runs/{run_id}/trace" for a in access)


def test_streaming_and_refusals_over_real_http(served):
    _, base, _ = served
    with httpx.stream("POST", base + "/ask/stream", json={"question": QUESTIONS[0]}, headers=auth("carol"),
                      timeout=60) as response:
        frames = [line for line in response.iter_lines() if line.startswith("event: ")]
    assert frames[-1] == "event: result" and set(frames[:-1]) == {"event: span"}
    spoofed = httpx.post(base + "/ask", json={"question": "salary bands", "user": "alice"}, headers=auth("bob"))
    assert spoofed.status_code == 422
    assert httpx.post(base + "/ask", json={"question": "hi"}).status_code == 401
    huge = httpx.post(base + "/ask", content=json.dumps({"question": "x" * 70_000}), headers=auth("bob"))
    assert huge.status_code == 413
