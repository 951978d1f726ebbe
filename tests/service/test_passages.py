"""What the page reads beyond `/ask`: `/me`, the cited passages of one's own run, and the trace's limits."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from boundloop.policies.budget import BudgetLimits
from boundloop.policies.entitlements import Directory
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.runstore.sqlite import SqliteRunStore
from boundloop.service.app import create_app
from boundloop.service.settings import ServiceSettings
from boundloop.service.state import ServiceState
from tests.service.conftest import make_state
from tests.service.keys import auth, directory_with_keys

SALARY = {"question": "What are the salary bands for level L5 engineers?"}


def test_me_names_the_credentials_owner_only(client):
    assert client.get("/me", headers=auth("alice")).json() == {"user": "alice", "display_name": "alice"}
    assert client.get("/me", headers={"X-API-Key": "not-a-key"}).status_code == 401
    assert client.get("/me").status_code == 401


def test_passages_are_the_cited_chunks_of_ones_own_run(client):
    result = client.post("/ask", json=SALARY, headers=auth("alice")).json()
    assert result["status"] == "answered"
    body = client.get(f"/runs/{result['run_id']}/passages", headers=auth("alice")).json()
    passages = body["passages"]
    assert [(p["marker"], p["chunk_id"]) for p in passages] == [
        (c["marker"], c["chunk_id"]) for c in result["citations"]]
    salary = next(p for p in passages if p["doc_id"] == "salaries")
    assert "EUR 80,000" in salary["text"] and salary["title"] == "Salary bands"
    for claim in result["claims"]:  # every claim's words stand in a passage the page can show
        assert any(claim["text"].split()[0] in p["text"] for p in passages)


def test_another_users_run_has_no_passages_for_them(client):
    run_id = client.post("/ask", json=SALARY, headers=auth("alice")).json()["run_id"]
    response = client.get(f"/runs/{run_id}/passages", headers=auth("bob"))
    assert response.status_code == 404 and "CANARY" not in response.text
    assert client.get("/runs/" + "0" * 32 + "/passages", headers=auth("alice")).status_code == 404
    assert client.get(f"/runs/{run_id}/passages").status_code == 401


def test_uncited_evidence_is_never_returned(client):
    result = client.post("/ask", json={"question": "Who approves expense claims above EUR 5,000?"},
                         headers=auth("alice")).json()
    snapshot = client.app.state.boundloop.runner.graph.get_state({"configurable": {"thread_id": result["run_id"]}})
    evidence = {e.chunk_id for e in snapshot.values["evidence"]}
    cited = {c["chunk_id"] for c in result["citations"]}
    assert evidence - cited  # the run read more than it cites
    returned = client.get(f"/runs/{result['run_id']}/passages", headers=auth("alice")).json()["passages"]
    assert {p["chunk_id"] for p in returned} == cited


def test_passages_leave_out_what_the_owner_may_no_longer_read(index, encoder, tmp_path):
    with TestClient(create_app(make_state(index, encoder, tmp_path))) as before:
        run_id = before.post("/ask", json=SALARY, headers=auth("alice")).json()["run_id"]
        assert "salaries" in {p["doc_id"] for p in before.get(
            f"/runs/{run_id}/passages", headers=auth("alice")).json()["passages"]}
    users = directory_with_keys()
    users["users"]["alice"]["groups"] = ["all-staff"]  # alice has left HR
    after_state = ServiceState(settings=ServiceSettings(), directory=Directory.from_mapping(users), backend=index,
                               encoder=encoder, store=SqliteRunStore(tmp_path / "runs.db"), reasoner=OfflineReasoner())
    with TestClient(create_app(after_state)) as after:
        response = after.get(f"/runs/{run_id}/passages", headers=auth("alice"))
    assert response.status_code == 200
    assert "salaries" not in {p["doc_id"] for p in response.json()["passages"]}
    assert "CANARY-HR" not in json.dumps(response.json())


def test_trace_carries_the_limits_it_ran_under(index, encoder, tmp_path):
    limits = BudgetLimits(max_hops=2, max_tokens=9000, max_seconds=7.5, max_retrieval_calls=4)
    with TestClient(create_app(make_state(index, encoder, tmp_path, limits=limits))) as client:
        run_id = client.post("/ask", json=SALARY, headers=auth("alice")).json()["run_id"]
        trace = client.get(f"/runs/{run_id}/trace", headers=auth("alice")).json()
    assert trace["limits"] == {"hops": 2, "tokens": 9000, "retrieval_calls": 4, "elapsed_ms": 7500, "documents": 40}
