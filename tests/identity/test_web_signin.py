"""The web page's sign-in with the provider: code flow with PKCE on the server, cookie session, CSRF, sign-out."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from fastapi.testclient import TestClient

from boundloop.service.app import create_app
from boundloop.service.oidc_tokens import OidcSettings
from tests.identity.conftest import REDIRECT_URI
from tests.identity.provider import CLIENT_SECRET, follow_login
from tests.service.conftest import make_state

QUESTION = {"question": "What is the parental leave policy?"}


def settings(provider) -> OidcSettings:
    return OidcSettings(issuer=provider.issuer, audience="boundloop", client_id="boundloop",
                        client_secret=CLIENT_SECRET)


@pytest.fixture
def web(index, encoder, tmp_path, provider):
    state = make_state(index, encoder, tmp_path, oidc=settings(provider))
    with TestClient(create_app(state), base_url="http://localhost", raise_server_exceptions=False,
                    follow_redirects=False) as client:
        yield client


def _sign_in(client: TestClient, user: str) -> httpx.Response:
    start = client.get("/auth/login")
    assert start.status_code == 303
    with httpx.Client(follow_redirects=False, timeout=10) as http:
        back = follow_login(http, http.get(start.headers["location"]), user, REDIRECT_URI)
    return client.get(back)


def test_signing_in_sets_an_httponly_lax_cookie_and_the_page_asks_under_it(web, provider):
    assert web.get("/auth/session").json() == {"provider": True, "user": None}
    start = web.get("/auth/login")
    query = parse_qs(urlparse(start.headers["location"]).query)
    assert start.headers["location"].startswith(provider.issuer)
    assert query["code_challenge_method"] == ["S256"] and query["state"] and query["nonce"]
    assert "code_verifier" not in query
    done = _sign_in(web, "dave")
    assert done.status_code == 303 and done.headers["location"] == "http://localhost/"
    cookie = next(c for c in done.headers.get_list("set-cookie") if c.startswith("boundloop_session="))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie  # localhost: not Secure
    assert cookie.split(";")[0].count(".") == 1  # our sealed session, not the provider's token (which has two dots)
    session = web.get("/auth/session").json()
    assert session["user"] == "dave" and session["csrf"]
    assert web.get("/me").json()["user"] == "dave"
    refused = web.post("/ask", json=QUESTION)
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert web.post("/ask", json=QUESTION, headers={"X-CSRF-Token": "guess"}).status_code == 403
    answered = web.post("/ask", json=QUESTION, headers={"X-CSRF-Token": session["csrf"]})
    assert answered.status_code == 200, answered.text


def test_signing_in_as_a_file_accounts_name_is_refused_and_sets_no_session(web):
    done = _sign_in(web, "alice")  # alice is an account of the directory file (an API key's user)
    assert done.status_code == 401 and "rename" in done.json()["detail"]
    assert not any(c.startswith("boundloop_session=") for c in done.headers.get_list("set-cookie"))
    assert web.get("/auth/session").json()["user"] is None


def test_signing_out_needs_the_csrf_token_clears_the_session_and_names_the_provider_page(web, provider):
    _sign_in(web, "dave")
    csrf = web.get("/auth/session").json()["csrf"]
    assert web.post("/auth/logout").status_code == 403
    out = web.post("/auth/logout", headers={"X-CSRF-Token": csrf})
    assert out.status_code == 200
    assert out.json()["redirect"].startswith(f"{provider.issuer}/session/end?")
    assert web.get("/me").status_code == 401
    assert web.get("/auth/session").json()["user"] is None


def test_a_callback_with_another_state_or_no_pending_sign_in_is_refused(web, provider):
    start = web.get("/auth/login")
    with httpx.Client(follow_redirects=False, timeout=10) as http:
        back = follow_login(http, http.get(start.headers["location"]), "dave", REDIRECT_URI)
    code = parse_qs(urlparse(back).query)["code"][0]
    assert web.get("/auth/callback", params={"code": code, "state": "forged"}).status_code == 400
    web.cookies.clear()
    assert web.get(back).status_code == 400  # no pending sign-in in this browser
    assert web.get("/me").status_code == 401


def test_a_forged_session_cookie_is_a_401(web):
    web.cookies.set("boundloop_session", "eyJ1IjoiYWRtaW4ifQ.forged", domain="localhost")
    assert web.get("/me").status_code == 401


def test_the_cookie_is_secure_off_localhost(index, encoder, tmp_path, provider):
    state = make_state(index, encoder, tmp_path, oidc=settings(provider))
    with TestClient(create_app(state), base_url="http://boundloop.example", follow_redirects=False) as client:
        pending = client.get("/auth/login").headers["set-cookie"]
        assert "Secure" in pending and "HttpOnly" in pending


def test_without_a_client_the_page_offers_the_api_key_form_only(index, encoder, tmp_path, provider):
    bearer_only = OidcSettings(issuer=provider.issuer, audience="boundloop")  # tokens yes, web sign-in no
    for state in (make_state(index, encoder, tmp_path), make_state(index, encoder, tmp_path, oidc=bearer_only)):
        with TestClient(create_app(state), follow_redirects=False) as client:
            assert client.get("/auth/session").json() == {"provider": False, "user": None}
            assert client.get("/auth/login").status_code == 404
