"""The access log: one line per request, with the route template, status, duration and user; text or JSON."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient

from boundloop.policies.errors import BoundloopError
from boundloop.service.access_log import LOGGER, format_from_env
from boundloop.service.app import create_app
from tests.service.keys import auth


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def lines():
    handler = Lines()
    LOGGER.addHandler(handler)
    yield handler.lines
    LOGGER.removeHandler(handler)


def _requests(client: TestClient) -> str:
    client.get("/healthz")
    run_id = client.post("/ask", json={"question": "Who approves expense claims above EUR 5,000?"},
                         headers=auth("bob")).json()["run_id"]
    client.get(f"/runs/{run_id}", headers=auth("bob"))
    client.post("/ask", json={"question": "q"}, headers={"X-API-Key": "wrong"})
    client.get("/no/such/route")
    client.get("/")
    client.get("/openapi.json")
    return run_id


def test_text_lines_name_the_route_template_status_and_user(state, lines):
    with TestClient(create_app(state, access_log_format="text"), raise_server_exceptions=False) as client:
        run_id = _requests(client)
    assert len(lines) == 7
    fields = [line.split(" ", 1)[1].split() for line in lines]  # after the timestamp
    assert [(f[0], f[1], f[2], f[4]) for f in fields] == [
        ("GET", "/healthz", "200", "user=-"),
        ("POST", "/ask", "200", "user=bob"),
        ("GET", "/runs/{run_id}", "200", "user=bob"),
        ("POST", "/ask", "401", "user=-"),
        ("GET", "-", "404", "user=-"),
        ("GET", "/", "200", "user=-"),
        ("GET", "/openapi.json", "200", "user=-"),
    ]
    assert all(f[3].endswith("ms") and float(f[3][:-2]) >= 0 for f in fields)
    assert not any(run_id in line for line in lines)  # ids stay out of the log


def test_json_lines(state, lines):
    with TestClient(create_app(state, access_log_format="json"), raise_server_exceptions=False) as client:
        _requests(client)
    records = [json.loads(line) for line in lines]
    assert [(r["method"], r["route"], r["status"], r["user"]) for r in records][1:3] == [
        ("POST", "/ask", 200, "bob"), ("GET", "/runs/{run_id}", 200, "bob")]
    assert all(set(r) == {"time", "method", "route", "status", "ms", "user"} for r in records)


def test_off_logs_nothing_and_a_bad_setting_names_the_variable(state, lines, monkeypatch):
    with TestClient(create_app(state, access_log_format="off"), raise_server_exceptions=False) as client:
        _requests(client)
    assert lines == []
    monkeypatch.setenv("BOUNDLOOP_ACCESS_LOG", "xml")
    with pytest.raises(BoundloopError, match="BOUNDLOOP_ACCESS_LOG='xml' must be one of text, json, off"):
        format_from_env()
