"""PostgreSQL checkpoints and run registry: two service processes on one database see each other's runs."""

from __future__ import annotations

import psycopg
import pytest
from fastapi.testclient import TestClient

from boundloop.runstore.postgres import PostgresRunStore
from boundloop.service.app import create_app
from tests.service.conftest import make_state
from tests.service.keys import auth

pytestmark = pytest.mark.slow
QUESTION = {"question": "Where does the Head of Finance sit?"}


@pytest.fixture
def two_workers(index, encoder, tmp_path, postgres_url):
    """Two independent app instances (as two uvicorn workers would be) on the same database."""
    states = [make_state(index, encoder, tmp_path / str(n), store=PostgresRunStore(postgres_url))
              for n in range(2)]
    clients = [TestClient(create_app(state)) for state in states]
    for c in clients:
        c.__enter__()
    yield clients
    for c, state in zip(clients, states, strict=True):
        c.__exit__(None, None, None)
        state.store.close()


def test_a_run_started_on_one_worker_is_readable_from_the_other(two_workers, postgres_url):
    first, second = two_workers
    assert first.get("/healthz").json()["checkpoints"] == "postgres"
    result = first.post("/ask", json=QUESTION, headers=auth("bob")).json()
    run_id = result["run_id"]
    assert second.get(f"/runs/{run_id}", headers=auth("bob")).json()["result"] == result
    trace = second.get(f"/runs/{run_id}/trace", headers=auth("bob")).json()
    assert trace["spans"][0]["node"] == "governor" and len(trace["spans"]) > 5
    assert second.get(f"/runs/{run_id}/trace", headers=auth("alice")).status_code == 404
    with psycopg.connect(postgres_url) as conn:
        checkpoints = conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = %s", (run_id,)).fetchone()
        owner = conn.execute("SELECT owner FROM boundloop_runs WHERE run_id = %s", (run_id,)).fetchone()
    assert checkpoints[0] == 1 and owner[0] == "bob"  # one checkpoint, with every transition


def test_streamed_runs_are_checkpointed_in_postgres(two_workers):
    first, second = two_workers
    with first.stream("POST", "/ask/stream", json=QUESTION, headers=auth("alice")) as response:
        text = response.read().decode()
    run_id = text.rsplit('"run_id":"', 1)[1].split('"', 1)[0]
    assert second.get(f"/runs/{run_id}/trace", headers=auth("alice")).status_code == 200


def test_the_registry_reports_finished_runs_for_stats(index, encoder, tmp_path, postgres_url):
    store = PostgresRunStore(postgres_url)
    try:
        state = make_state(index, encoder, tmp_path, store=store)
        state.runner.ask(QUESTION["question"], "bob")
        rows = store.finished_runs()
    finally:
        store.close()
    assert len(rows) == 1 and rows[0]["complete"] == 1 and rows[0]["usage"]["hops"] >= 1
    assert set(rows[0]["usage"]) == {"hops", "retrieval_calls", "documents", "tokens", "elapsed_ms"}  # JSONB, read back


def test_setup_is_safe_when_workers_start_together(postgres_url):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _: PostgresRunStore(postgres_url), range(4)))
    for store in stores:
        store.close()
