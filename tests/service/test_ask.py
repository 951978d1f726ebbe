"""POST /ask and /ask/stream: the `ask --json` shape, the caller's entitlements, and the order of events."""

from __future__ import annotations

import json

from boundloop.domain.result import RunResult
from tests.service.keys import auth

SALARY = {"question": "What are the salary bands for level L5 engineers?"}


def _events(text: str) -> list[tuple[str, dict]]:
    events = []
    for frame in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in frame.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_ask_returns_the_cli_json_shape(client):
    body = client.post("/ask", json={"question": "Who approves expense claims above EUR 5,000?"},
                       headers=auth("bob")).json()
    assert set(body) == set(RunResult.model_fields)
    assert body["status"] == "answered" and body["citations"][0]["doc_id"] == "expense"


def test_answers_follow_the_callers_groups_not_the_body(client):
    alice = client.post("/ask", json=SALARY, headers=auth("alice")).json()
    bob = client.post("/ask", json=SALARY, headers=auth("bob")).json()
    assert "salaries" in {c["doc_id"] for c in alice["citations"]}
    assert "CANARY-HR-1111" not in json.dumps(bob) and "salaries" not in json.dumps(bob)


def test_a_body_naming_a_user_is_refused(client):
    for field in ("user", "principal", "groups"):
        response = client.post("/ask", json={**SALARY, field: "alice"}, headers=auth("bob"))
        assert response.status_code == 422
        assert response.json()["detail"] == [{"loc": ["body", field], "msg": f"unknown field {field!r}"}]


def test_stream_sends_one_span_per_transition_then_the_result(client):
    with client.stream("POST", "/ask/stream", json=SALARY, headers=auth("alice")) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = _events(response.read().decode())
    kinds = [kind for kind, _ in events]
    assert kinds[-1] == "result" and set(kinds[:-1]) == {"span"} and len(kinds) > 5
    spans = [data for kind, data in events if kind == "span"]
    assert spans[0]["node"] == "governor" and spans[-1]["node"] == "governor"
    hops = [s["usage"]["hops"] for s in spans]
    assert hops == sorted(hops)  # the budget used so far only grows
    result = events[-1][1]
    trace = client.get(f"/runs/{result['run_id']}/trace", headers=auth("alice")).json()
    assert trace["spans"] == spans
    stored = client.get(f"/runs/{result['run_id']}", headers=auth("alice")).json()
    assert stored == {"run_id": result["run_id"], "finished": True, "interrupted": False, "cancelled": False,
                      "result": result, "feedback": None}


def test_stream_refuses_bad_input_before_streaming(client):
    response = client.post("/ask/stream", json={"question": ""}, headers=auth("bob"))
    assert response.status_code == 422
    assert client.post("/ask/stream", json=SALARY).status_code == 401
