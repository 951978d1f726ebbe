"""Who may call what: 401 without a valid credential, 403 outside one's groups, 404 for another user's runs."""

from __future__ import annotations

import time

import jwt
import pytest

from tests.service.keys import JWT_SECRET, KEYS, auth, bearer

QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}


@pytest.mark.parametrize("headers", [
    {},
    {"X-API-Key": "not-a-key"},
    {"Authorization": "Bearer not-a-key"},
    {"Authorization": KEYS["bob"]},  # no scheme
    {"Authorization": f"Basic {KEYS['bob']}"},
    {"Authorization": "Bearer "},
    {"Authorization": f"Bearer {KEYS['bob']}", "X-API-Key": KEYS["alice"]},  # two identities at once
])
def test_requests_without_one_valid_credential_get_401(client, headers):
    response = client.post("/ask", json=QUESTION, headers=headers)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert "alice" not in response.text and "bob" not in response.text


def test_api_key_works_as_bearer_and_as_x_api_key(client):
    assert client.post("/ask", json=QUESTION, headers=bearer("bob")).status_code == 200
    assert client.post("/ask", json=QUESTION, headers=auth("bob")).status_code == 200


def _token(sub: str, secret: str = JWT_SECRET, expires_in: float = 300, **claims) -> str:
    return jwt.encode({"sub": sub, "exp": int(time.time() + expires_in), **claims}, secret, algorithm="HS256")


def test_jwt_identifies_its_subject(client):
    response = client.post("/ask", json={"question": "What are the salary bands for level L5?"},
                           headers={"Authorization": f"Bearer {_token('alice')}"})
    assert response.status_code == 200
    assert "salaries" in {c["doc_id"] for c in response.json()["citations"]}  # alice is in hr


@pytest.mark.parametrize("token", [
    _token("alice", expires_in=-10),
    _token("alice", secret="another-secret-of-sufficient-length!!"),
    _token("mallory"),
    jwt.encode({"sub": "alice"}, JWT_SECRET, algorithm="HS256"),  # no expiry
    jwt.encode({"sub": "alice", "exp": int(time.time()) + 60}, None, algorithm="none"),  # unsigned
    "a.b.c",
])
def test_bad_or_foreign_jwts_get_401(client, token):
    response = client.post("/ask", json=QUESTION, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401


@pytest.mark.parametrize("claims", [
    {"exp": str(int(time.time()) + 300)},  # PyJWT takes a digit string; the lifetime arithmetic then failed: 500
    {"exp": int(time.time()) + 300, "iat": str(int(time.time()))},  # was accepted, the lifetime counted from now
    {"exp": int(time.time()) + 300, "nbf": str(int(time.time()))},  # was accepted
    {"exp": 10 ** 400},  # too large for a float: was a 500
    {"exp": int(time.time()) + 300, "iat": True},
])
def test_a_signed_jwt_with_a_time_claim_that_is_not_a_number_gets_401(client, claims):
    token = jwt.encode({"sub": "alice", **claims}, JWT_SECRET, algorithm="HS256")
    response = client.post("/ask", json=QUESTION, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    assert response.json()["detail"].startswith("invalid token: its")


@pytest.mark.parametrize("headers", [
    [("Authorization", f"Bearer {KEYS['bob']}"), ("Authorization", f"Bearer {KEYS['alice']}")],
    [("Authorization", f"Bearer {KEYS['bob']}"), ("Authorization", f"Bearer {KEYS['bob']}")],
    [("Authorization", f"Bearer {KEYS['bob']}"), ("Authorization", "Bearer not-a-key")],
    [("X-API-Key", KEYS["bob"]), ("X-API-Key", KEYS["alice"])],
])
def test_a_credential_header_sent_twice_gets_401(client, headers):
    """The first header used to win; whichever copy a proxy keeps, the request is refused."""
    response = client.post("/ask", json=QUESTION, headers=headers)
    assert response.status_code == 401
    assert response.json()["detail"].startswith("send one credential: the ")
    assert client.post("/ask", json=QUESTION, headers=headers[:1]).status_code in (200, 401)


def test_jwt_is_refused_when_no_secret_is_configured(index, encoder, tmp_path):
    from fastapi.testclient import TestClient

    from boundloop.service.app import create_app
    from tests.service.conftest import make_state

    state = make_state(index, encoder, tmp_path, jwt_secret=None)
    with TestClient(create_app(state)) as client:
        response = client.post("/ask", json=QUESTION, headers={"Authorization": f"Bearer {_token('alice')}"})
    assert response.status_code == 401


def test_other_users_runs_and_traces_are_404(client):
    run_id = client.post("/ask", json=QUESTION, headers=auth("bob")).json()["run_id"]
    assert client.get(f"/runs/{run_id}", headers=auth("bob")).status_code == 200
    assert client.get(f"/runs/{run_id}/trace", headers=auth("bob")).status_code == 200
    for path in (f"/runs/{run_id}", f"/runs/{run_id}/trace"):
        other = client.get(path, headers=auth("alice"))
        missing = client.get(path.replace(run_id, "0" * 32), headers=auth("alice"))
        assert other.status_code == missing.status_code == 404
        assert other.json()["detail"].replace(run_id, "ID") == missing.json()["detail"].replace("0" * 32, "ID")
        assert client.get(path).status_code == 401


def test_ingest_is_for_the_admin_group_only(client):
    line = b'{"id": "memo", "title": "Memo", "text": "A memo.", "acl": ["all-staff"]}\n'
    headers = {"Content-Type": "application/x-ndjson"}
    assert client.post("/ingest", content=line, headers=headers).status_code == 401
    refused = client.post("/ingest", content=line, headers={**headers, **auth("alice")})
    assert refused.status_code == 403
    assert client.post("/ingest", content=line, headers={**headers, **auth("grace")}).status_code == 200


def test_health_and_metrics_need_no_credential(client):
    assert client.get("/healthz").json() == {"status": "ok", "checkpoints": "sqlite", "reasons": []}
    assert client.get("/metrics").status_code == 200


def _state_with(index, encoder, tmp_path, users: dict, **settings):
    from boundloop.policies.entitlements import Directory
    from boundloop.reasoners.offline import OfflineReasoner
    from boundloop.runstore.sqlite import SqliteRunStore
    from boundloop.service.settings import ServiceSettings
    from boundloop.service.state import ServiceState

    return ServiceState(settings=ServiceSettings(jwt_secret=JWT_SECRET, **settings),
                        directory=Directory.from_mapping({"users": users}), backend=index, encoder=encoder,
                        store=SqliteRunStore(tmp_path / "runs.db"), reasoner=OfflineReasoner())


@pytest.mark.parametrize("key", ["key.with.two-dots", "one.dot", "a.b.c.d"])
def test_api_keys_containing_dots_work(index, encoder, tmp_path, key):
    """A key with two dots looks like a JWT; a registered key is matched first, so it works all the same."""
    from fastapi.testclient import TestClient

    from boundloop.service.app import create_app
    from tests.service.keys import sha256

    state = _state_with(index, encoder, tmp_path, {"dora": {"groups": ["all-staff"], "api_key_sha256": [sha256(key)]}})
    with TestClient(create_app(state)) as client:
        assert client.post("/ask", json=QUESTION, headers={"X-API-Key": key}).status_code == 200
        assert client.post("/ask", json=QUESTION, headers={"Authorization": f"Bearer {key}"}).status_code == 200
        assert client.post("/ask", json=QUESTION, headers={"X-API-Key": key + "x"}).status_code == 401


@pytest.mark.parametrize("claims, accepted", [
    ({"exp": 23 * 3600}, True),
    ({"exp": 24 * 3600}, True),
    ({"exp": 25 * 3600}, False),  # valid for longer than 24 h from now
    ({"iat": -3600, "exp": 23.5 * 3600}, False),  # issued for 24.5 h
    ({"iat": -3600, "exp": 22 * 3600}, True),
    ({"exp": 10 * 365 * 86400}, False),
])
def test_jwt_lifetime_is_capped_at_24_hours_by_default(client, claims, accepted):
    now = time.time()
    token = jwt.encode({"sub": "alice", **{k: int(now + v) for k, v in claims.items()}}, JWT_SECRET, algorithm="HS256")
    response = client.post("/ask", json=QUESTION, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == (200 if accepted else 401)
    if not accepted and "iat" not in claims:
        assert "lives longer than this server accepts (86400 s)" in response.json()["detail"]


def test_jwt_max_ttl_is_configurable(index, encoder, tmp_path):
    from fastapi.testclient import TestClient

    from boundloop.service.app import create_app
    from tests.service.keys import directory_with_keys

    state = _state_with(index, encoder, tmp_path, directory_with_keys()["users"], jwt_max_ttl_s=3600)
    with TestClient(create_app(state)) as client:
        for lifetime, status in ((1800, 200), (7200, 401)):
            headers = {"Authorization": f"Bearer {_token('alice', expires_in=lifetime)}"}
            assert client.post("/ask", json=QUESTION, headers=headers).status_code == status
