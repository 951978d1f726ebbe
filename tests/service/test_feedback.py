"""`POST /runs/{run_id}/feedback`: owner-only, stored with the run, shown by `GET /runs/{id}`, copied to LangSmith."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient
from langsmith.utils import LangSmithConflictError

from boundloop.service.app import create_app
from boundloop.service.langsmith_feedback import FEEDBACK_KEY, LangSmithFeedback, tracing_configured
from tests.service.conftest import make_state
from tests.service.keys import auth

QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}


class FakeLangSmith:
    """Records what would have been sent; the second rating of a run conflicts, as LangSmith's API does."""

    def __init__(self) -> None:
        self.created: list[dict] = []
        self.updated: list[tuple] = []

    def create_feedback(self, **kwargs):
        if any(c["feedback_id"] == kwargs["feedback_id"] for c in self.created):
            raise LangSmithConflictError("feedback exists")
        self.created.append(kwargs)

    def update_feedback(self, feedback_id, **kwargs):
        self.updated.append((feedback_id, kwargs))


@pytest.fixture
def fake():
    return FakeLangSmith()


@pytest.fixture
def rated(index, encoder, tmp_path, fake):
    state = make_state(index, encoder, tmp_path)
    state.langsmith = LangSmithFeedback(client_factory=lambda: fake, configured=lambda: True)
    with TestClient(create_app(state), raise_server_exceptions=False) as client:
        yield client, state


def test_a_rating_is_stored_with_the_run_and_shown_with_it(rated, fake):
    client, _ = rated
    run_id = client.post("/ask", json=QUESTION, headers=auth("bob")).json()["run_id"]
    up = client.post(f"/runs/{run_id}/feedback", json={"score": 1}, headers=auth("bob"))
    assert up.status_code == 200 and up.json()["score"] == 1 and up.json()["comment"] is None
    down = client.post(f"/runs/{run_id}/feedback", json={"score": -1, "comment": "  Cites the old policy. "},
                       headers=auth("bob")).json()
    assert down["run_id"] == run_id and down["comment"] == "Cites the old policy."
    shown = client.get(f"/runs/{run_id}", headers=auth("bob")).json()["feedback"]
    assert shown == {"score": -1, "comment": "Cites the old policy.", "time": down["time"]}
    # Sent to LangSmith on the run's trace (the runner gives the trace the run's id), the second as an update.
    assert [(c["run_id"], c["key"], c["score"]) for c in fake.created] == [(uuid.UUID(run_id), FEEDBACK_KEY, 1)]
    assert fake.updated == [(fake.created[0]["feedback_id"], {"score": 0, "comment": "Cites the old policy."})]


def test_only_the_owner_may_rate_and_only_a_finished_run(rated, fake):
    client, state = rated
    run_id = client.post("/ask", json=QUESTION, headers=auth("bob")).json()["run_id"]
    for user, rid in (("alice", run_id), ("bob", "0" * 32)):
        response = client.post(f"/runs/{rid}/feedback", json={"score": 1}, headers=auth(user))
        assert response.status_code == 404 and response.json() == {"detail": f"no run {rid}"}
    state.store.start("f" * 32, "bob", "still running")
    assert client.post(f"/runs/{'f' * 32}/feedback", json={"score": 1}, headers=auth("bob")).status_code == 409
    assert client.post(f"/runs/{run_id}/feedback", json={"score": 1}).status_code == 401
    assert state.store.feedback(run_id) is None and fake.created == []


@pytest.mark.parametrize("body", [{"score": 0}, {"score": 2}, {"score": True}, {"score": 1.0}, {"score": "1"}, {},
                                  {"score": 1, "comment": "x" * 2001}, {"score": 1, "user": "alice"},
                                  {"score": 1, "time": "2026-01-01T00:00:00Z"}])
def test_a_bad_rating_is_refused_and_changes_nothing(rated, body):
    client, state = rated
    run_id = client.post("/ask", json=QUESTION, headers=auth("bob")).json()["run_id"]
    assert client.post(f"/runs/{run_id}/feedback", json=body, headers=auth("bob")).status_code == 422
    assert state.store.feedback(run_id) is None


def test_a_comment_of_two_thousand_characters_is_kept_whole(rated):
    client, state = rated
    run_id = client.post("/ask", json=QUESTION, headers=auth("bob")).json()["run_id"]
    assert client.post(f"/runs/{run_id}/feedback", json={"score": 1, "comment": "y" * 2000},
                       headers=auth("bob")).status_code == 200
    assert state.store.feedback(run_id).comment == "y" * 2000


def test_nothing_is_sent_to_langsmith_unless_tracing_is_configured(monkeypatch, fake):
    for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert not tracing_configured()
    sender = LangSmithFeedback(client_factory=lambda: fake)
    from boundloop.domain.feedback import Rating

    assert sender.send(uuid.uuid4().hex, Rating(score=1)) is False and fake.created == []
    monkeypatch.setenv("LANGSMITH_TRACING", "true")
    assert not tracing_configured()  # tracing on, but no key
    monkeypatch.setenv("LANGSMITH_API_KEY", "lsv2-test")
    assert tracing_configured()
    assert sender.send(uuid.uuid4().hex, Rating(score=1)) and len(fake.created) == 1


def test_a_langsmith_failure_never_fails_the_rating(index, encoder, tmp_path):
    def broken():
        raise ConnectionError("no network")

    state = make_state(index, encoder, tmp_path)
    state.langsmith = LangSmithFeedback(client_factory=broken, configured=lambda: True)
    with TestClient(create_app(state), raise_server_exceptions=False) as client:
        run_id = client.post("/ask", json=QUESTION, headers=auth("bob")).json()["run_id"]
        assert client.post(f"/runs/{run_id}/feedback", json={"score": 1}, headers=auth("bob")).status_code == 200
    assert state.store.feedback(run_id).score == 1


def test_the_runs_trace_has_the_runs_id_so_feedback_lands_on_it(index, encoder, resolver):
    from langchain_core.tracers.context import collect_runs

    from tests.loop_fixtures import make_runner

    with collect_runs() as collected:
        result = make_runner(index, encoder, resolver).ask(QUESTION["question"], "bob")
    roots = [run for run in collected.traced_runs if run.parent_run_id is None]
    assert [run.id for run in roots] == [uuid.UUID(result.run_id)]
