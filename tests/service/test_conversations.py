"""Conversations over HTTP: `conversation_id` on /ask and /ask/stream, the history routes, owner-only everywhere."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from boundloop.reasoners.offline import OfflineReasoner
from boundloop.runstore.sqlite import SqliteRunStore
from boundloop.service.app import create_app
from boundloop.service.directory_reload import ReloadingDirectory
from boundloop.service.settings import ServiceSettings
from boundloop.service.state import ServiceState
from tests.service.keys import JWT_SECRET, auth, directory_with_keys
from tests.service.test_ask import _events
from tests.service.test_revocation import without, write

PEOPLE = {"question": "Who is the Head of People?"}
SALARY = {"question": "What do L5 engineers earn per year?"}


def ask(client, user: str, question: str, conversation_id: str | None = None):
    body = {"question": question} | ({"conversation_id": conversation_id} if conversation_id else {})
    return client.post("/ask", json=body, headers=auth(user))


def test_ask_always_names_its_conversation_and_a_follow_up_continues_it(client):
    first = ask(client, "bob", PEOPLE["question"]).json()
    assert len(first["conversation_id"]) == 32 and first["standalone_question"] == PEOPLE["question"]
    follow = ask(client, "bob", "And the Head of Finance?", first["conversation_id"]).json()
    assert follow["conversation_id"] == first["conversation_id"]
    assert follow["standalone_question"] == "Who is the Head of Finance?" and follow["short_answer"] == "Priya Raman"
    assert ask(client, "bob", PEOPLE["question"]).json()["conversation_id"] != first["conversation_id"]


def test_the_stream_takes_and_returns_the_conversation(client):
    first = ask(client, "bob", "Who is the Head of Finance?").json()
    response = client.post("/ask/stream", json={"question": "Where does she sit?",
                                                "conversation_id": first["conversation_id"]}, headers=auth("bob"))
    events = _events(response.text)
    resolve = next(data for kind, data in events if kind == "span" and data["node"] == "resolve")
    assert resolve["decision"] == "follow-up: 'Where does Priya Raman sit?'"
    kind, result = events[-1]
    assert kind == "result" and result["conversation_id"] == first["conversation_id"] and "3.12" in result["answer"]


def test_another_users_conversation_is_404_on_every_route_like_an_unknown_one(client):
    mine = ask(client, "alice", SALARY["question"]).json()["conversation_id"]
    unknown = "0" * 32
    for cid in (mine, unknown):
        for response in (ask(client, "bob", "And L6?", cid),
                         client.post("/ask/stream", json={"question": "And L6?", "conversation_id": cid},
                                     headers=auth("bob")),
                         client.get(f"/conversations/{cid}", headers=auth("bob")),
                         client.delete(f"/conversations/{cid}", headers=auth("bob"))):
            assert response.status_code == 404 and response.json() == {"detail": f"no conversation {cid}"}
    assert mine not in json.dumps(client.get("/conversations", headers=auth("bob")).json())
    assert client.get(f"/conversations/{mine}", headers=auth("alice")).status_code == 200  # still there
    assert ask(client, "bob", "q", "not-an-id").status_code == 422


def test_the_list_is_the_callers_own_newest_first_a_page_at_a_time(client):
    ids = [ask(client, "carol", q).json()["conversation_id"]
           for q in ("Who is the Head of Finance?", "Who is the Head of People?", "Who approves expense claims?")]
    ask(client, "carol", "And the Head of People?", ids[0])  # a new turn brings the first to the top
    ask(client, "bob", "Who is the Head of People?")
    page = client.get("/conversations?limit=2", headers=auth("carol")).json()
    assert [c["conversation_id"] for c in page["conversations"]] == [ids[0], ids[2]]
    assert page["conversations"][0]["title"] == "Who is the Head of Finance?"
    assert page["conversations"][0]["turns"] == 2 and page["next_cursor"]
    rest = client.get(f"/conversations?limit=2&cursor={page['next_cursor']}", headers=auth("carol")).json()
    assert [c["conversation_id"] for c in rest["conversations"]] == [ids[1]] and rest["next_cursor"] is None
    assert client.get("/conversations?cursor=%%%", headers=auth("carol")).status_code == 422
    assert client.get("/conversations?limit=0", headers=auth("carol")).status_code == 422
    assert client.get("/conversations").status_code == 401


def test_a_conversation_shows_each_turn_as_asked_and_as_answered(client):
    first = ask(client, "bob", "Who is the Head of Finance?").json()
    follow = ask(client, "bob", "Where does she sit?", first["conversation_id"]).json()
    body = client.get(f"/conversations/{first['conversation_id']}", headers=auth("bob")).json()
    assert body["title"] == "Who is the Head of Finance?" and len(body["turns"]) == 2
    turn = body["turns"][1]
    assert {k: turn[k] for k in ("run_id", "question", "standalone_question", "answer", "short_answer", "status",
                                 "withheld")} == {
        "run_id": follow["run_id"], "question": "Where does she sit?",
        "standalone_question": "Where does Priya Raman sit?", "answer": follow["answer"],
        "short_answer": follow["short_answer"], "status": "answered", "withheld": False}
    assert turn["time"].endswith("Z") or "+00:00" in turn["time"]


def test_deleting_a_conversation_deletes_its_runs(client):
    first = ask(client, "bob", "Who is the Head of Finance?").json()
    assert client.delete(f"/conversations/{first['conversation_id']}", headers=auth("bob")).status_code == 204
    assert client.get(f"/conversations/{first['conversation_id']}", headers=auth("bob")).status_code == 404
    assert client.get(f"/runs/{first['run_id']}", headers=auth("bob")).status_code == 404
    assert ask(client, "bob", "And in Toronto?", first["conversation_id"]).status_code == 404


@pytest.fixture
def live(index, encoder, tmp_path):
    path = tmp_path / "directory.json"
    write(path, directory_with_keys())
    state = ServiceState(settings=ServiceSettings(jwt_secret=JWT_SECRET),
                         directory=ReloadingDirectory(path, interval_s=0.0), backend=index, encoder=encoder,
                         store=SqliteRunStore(tmp_path / "runs.db"), reasoner=OfflineReasoner())
    with TestClient(create_app(state), raise_server_exceptions=False) as client:
        yield client, path


def test_after_revocation_history_shows_and_lends_nothing_the_user_may_no_longer_read(live):
    """alice loses hr: the salary turn is withheld in her conversation and no later turn can bring it back."""
    client, path = live
    first = ask(client, "alice", SALARY["question"]).json()
    cid = first["conversation_id"]
    assert first["status"] == "answered" and "80,000" in first["answer"]
    second = ask(client, "alice", "And who is the Head of People?", cid).json()
    write(path, without(directory_with_keys(), group=("alice", "hr")))
    follow = ask(client, "alice", "And what about L6 engineers?", cid)
    assert follow.status_code == 200
    trace = client.get(f"/runs/{follow.json()['run_id']}/trace", headers=auth("alice")).json()
    resolve = next(s for s in trace["spans"] if s["node"] == "resolve")
    assert "1 earlier turns left out" in resolve["reason"]
    view = client.get(f"/conversations/{cid}", headers=auth("alice")).json()
    assert [t["withheld"] for t in view["turns"]] == [True, False, False]
    assert view["turns"][0]["question"] == SALARY["question"] and view["turns"][0]["answer"] is None
    assert view["turns"][1]["answer"] == second["answer"]
    everything = json.dumps(view) + follow.text + json.dumps(trace)
    assert "80,000" not in everything and "CANARY" not in everything and "salaries" not in everything
    assert client.get(f"/runs/{first['run_id']}", headers=auth("alice")).status_code == 403


def test_a_follow_up_that_took_a_name_from_a_revoked_answer_is_withheld_too(live):
    """carol learns from the leadership-only reorg plan who will approve expenses, then asks where that person sits.

    The second answer cites only the seating chart, but its standalone question carries the name from the first
    answer; once carol leaves leadership, both turns are withheld, and the second run and its trace are 403.
    """
    client, path = live
    first = ask(client, "carol", "Who will expense approvals move to in the reorganisation?").json()
    assert "reorg" in {c["doc_id"] for c in first["citations"]} and first["short_answer"] == "Priya Raman"
    second = ask(client, "carol", "Where does she sit?", first["conversation_id"]).json()
    assert second["standalone_question"] == "Where does Priya Raman sit?"
    assert {c["doc_id"] for c in second["citations"]} == {"seating"}
    write(path, without(directory_with_keys(), group=("carol", "leadership")))
    view = client.get(f"/conversations/{first['conversation_id']}", headers=auth("carol")).json()
    assert [t["withheld"] for t in view["turns"]] == [True, True]
    assert "Priya" not in json.dumps(view)
    for route in (f"/runs/{second['run_id']}", f"/runs/{second['run_id']}/trace"):
        assert client.get(route, headers=auth("carol")).status_code == 403
