"""Bad input gets a 4xx with a clear message, and no error answer ever carries a traceback or internal detail."""

from __future__ import annotations

import pytest

from tests.service.keys import auth

JSON = {"Content-Type": "application/json"}


@pytest.mark.parametrize(("body", "status", "message"), [
    (b'{"question": ""}', 422, "at least 1 character"),
    (b'{"question": "   "}', 422, "at least 1 character"),
    (('{"question": "' + "x" * 4001 + '"}').encode(), 422, "at most 4000 characters"),
    (b'{"question": 42}', 422, "valid string"),
    (b'{"question": ["a"]}', 422, "valid string"),
    (b'{}', 422, "Field required"),
    (b'{"question": "hi", "extra": 1}', 422, "unknown field 'extra'"),
    (b'["question"]', 422, "valid dictionary"),
    (b'{"question": "unterminated', 400, "not valid JSON"),
    (b'', 422, "Field required"),
])
def test_bad_bodies_get_clear_4xx(client, body, status, message):
    for path in ("/ask", "/ask/stream"):
        response = client.post(path, content=body, headers={**JSON, **auth("bob")})
        assert response.status_code == status, response.text
        assert message in response.text
        assert "Traceback" not in response.text and '"input"' not in response.text


def test_a_question_of_exactly_4000_characters_is_accepted(client):
    assert client.post("/ask", json={"question": "expense " + "e" * 3992}, headers=auth("bob")).status_code == 200


def test_bodies_over_64_kib_get_413(client):
    padding = "x" * (64 * 1024)
    response = client.post("/ask", content=f'{{"question": "{padding}"}}', headers={**JSON, **auth("bob")})
    assert response.status_code == 413
    assert response.json() == {"detail": "the request body is larger than 65536 bytes"}


def test_a_body_over_the_limit_without_content_length_gets_413(client):
    def chunks():
        for _ in range(100):
            yield b"x" * 1024

    response = client.post("/ask", content=chunks(), headers={**JSON, **auth("bob")})
    assert response.status_code == 413


def test_bad_run_ids_and_unknown_routes_are_4xx(client):
    assert client.get("/runs/../etc/passwd", headers=auth("bob")).status_code == 404
    assert client.get("/runs/not-a-run-id", headers=auth("bob")).status_code == 422
    assert client.get("/ask", headers=auth("bob")).status_code == 405


def test_internal_errors_are_a_bare_500(client, state, monkeypatch):
    def explode(question, user):
        raise RuntimeError("secret detail: /srv/index.db CANARY-HR-1111")

    monkeypatch.setattr(state.runner, "ask", explode)
    response = client.post("/ask", json={"question": "anything"}, headers=auth("bob"))
    assert response.status_code == 500
    assert response.json() == {"detail": "internal error"}


def test_a_run_failing_mid_stream_ends_with_an_error_event(client, state, monkeypatch):
    def half(question, user, conversation_id=None, cancel=None):
        yield "span", {"node": "governor", "start": 0.0, "duration_ms": 0.1, "decision": "go", "reason": "",
                       "usage": {"hops": 0, "tokens": 0, "retrieval_calls": 0, "elapsed_ms": 0}}
        raise RuntimeError("secret detail CANARY-HR-1111")

    monkeypatch.setattr(state.runner, "stream", half)
    with client.stream("POST", "/ask/stream", json={"question": "anything"}, headers=auth("bob")) as response:
        text = response.read().decode()
    assert text.startswith("event: span") and text.rstrip().endswith('{"detail":"the run failed; see the server log"}')
    assert "CANARY" not in text


def test_a_run_that_cannot_start_streaming_is_a_bare_500_not_a_hang(client, state, monkeypatch):
    def refuses(*args, **kwargs):
        raise RuntimeError("secret detail CANARY-HR-2222")  # raised on the call, before any generator exists

    monkeypatch.setattr(state.runner, "stream", refuses)
    response = client.post("/ask/stream", json={"question": "anything"}, headers=auth("bob"))
    assert response.status_code == 500 and "CANARY" not in response.text
