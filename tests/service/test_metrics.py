"""GET /metrics: Prometheus text with runs by status and stop reason, latency histograms and budget use."""

from __future__ import annotations

import re

from tests.service.keys import auth


def _sample(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of `name` whose labels include `labels`."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line))
            if all(found.get(k) == v for k, v in labels.items()):
                total += float(line.rsplit(" ", 1)[1])
    return total


def test_metrics_count_runs_and_observe_latency_and_budget(client):
    before = client.get("/metrics").text
    answered = {"status": "answered", "stop_reason": "none"}
    body = client.post("/ask", json={"question": "Who approves expense claims above EUR 5,000?"},
                       headers=auth("bob")).json()
    assert body["status"] == "answered"
    after = client.get("/metrics")
    assert after.headers["content-type"].startswith("text/plain")
    text = after.text
    assert _sample(text, "boundloop_runs_total", **answered) == _sample(before, "boundloop_runs_total", **answered) + 1
    assert _sample(text, "boundloop_run_duration_seconds_count", endpoint="ask") >= 1
    assert _sample(text, "boundloop_budget_used_ratio_count", resource="hops") >= 1
    assert _sample(text, "boundloop_http_request_duration_seconds_count", method="POST", route="/ask",
                   status="200") >= 1


def test_runs_closed_by_a_limit_are_counted_with_their_reason(index, encoder, tmp_path):
    from fastapi.testclient import TestClient

    from boundloop.policies.budget import BudgetLimits
    from boundloop.service.app import create_app
    from tests.service.conftest import make_state

    state = make_state(index, encoder, tmp_path, limits=BudgetLimits(max_retrieval_calls=1))
    with TestClient(create_app(state)) as client:
        before = _sample(client.get("/metrics").text, "boundloop_runs_total", stop_reason="retrieval_calls")
        result = client.post("/ask", json={"question": "Where does the Head of Finance sit?"},
                             headers=auth("bob")).json()
        assert result["stop_reason"] == "retrieval_calls"
        text = client.get("/metrics").text
    assert _sample(text, "boundloop_runs_total", stop_reason="retrieval_calls") >= before + 1
    assert _sample(text, "boundloop_runs_total", status=result["status"], stop_reason="retrieval_calls") >= 1


def test_run_ids_never_become_metric_labels(client):
    run_id = client.post("/ask", json={"question": "Who is the Head of People?"}, headers=auth("bob")).json()["run_id"]
    client.get(f"/runs/{run_id}", headers=auth("bob"))
    text = client.get("/metrics").text
    assert run_id not in text and 'route="/runs/{run_id}"' in text
