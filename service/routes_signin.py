"""The web page's "Sign in with your company account": the authorization-code flow with PKCE, run on the server.

`GET /auth/login` sends the browser to the provider with a fresh state, nonce and PKCE challenge (kept in a signed,
HttpOnly cookie); `GET /auth/callback` checks the state, trades the code for tokens with the client secret and the
PKCE verifier, checks the ID token (its nonce included) and sets the session cookie (`service.web_session`).
`GET /auth/session` tells the page whether sign-in is offered and who is signed in; `POST /auth/logout` (CSRF
checked) clears the session and names the provider's end-session page when it has one. Without
`BOUNDLOOP_OIDC_CLIENT_ID` and `_CLIENT_SECRET` these routes answer 404 and the page offers the API-key form only.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Annotated, Any
from urllib.parse import urlencode

import httpx
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from boundloop.service.dependencies import State
from boundloop.service.errors import AuthenticationFailed, NotFound, ServiceError
from boundloop.service.identity_sources import WebSignIn
from boundloop.service.web_session import CSRF_HEADER, PENDING_COOKIE, PENDING_S, SESSION_COOKIE

router = APIRouter(prefix="/auth", include_in_schema=False)
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
TOKEN_TIMEOUT_S = 10.0


class StaleSignIn(ServiceError):
    """A callback whose state matches no sign-in this browser started (expired, replayed or forged): 400."""

    status_code = 400


class ProviderDown(ServiceError):
    """The provider's endpoints are not known (its discovery document could not be fetched)."""

    status_code = 503


def _sign_in(state: State) -> WebSignIn:
    if state.identity_sources.web is None:
        raise NotFound("sign-in with an identity provider is not configured here")
    return state.identity_sources.web


def _endpoint(web: WebSignIn, name: str) -> str:
    web.provider.retry_if_due()
    url = web.provider.metadata.get(name)
    if not isinstance(url, str):
        raise ProviderDown("the identity provider cannot be reached: try again shortly")
    return url


def _cookie(response: Response, request: Request, name: str, value: str, max_age: int, path: str) -> None:
    response.set_cookie(name, value, max_age=max_age, path=path, httponly=True, samesite="lax",
                        secure=request.url.hostname not in LOCAL_HOSTS)


@router.get("/login")
def login(request: Request, state: State) -> RedirectResponse:
    web = _sign_in(state)
    authorize = _endpoint(web, "authorization_endpoint")
    pending = {"s": secrets.token_urlsafe(24), "n": secrets.token_urlsafe(24), "v": secrets.token_urlsafe(48)}
    challenge = base64.urlsafe_b64encode(hashlib.sha256(pending["v"].encode()).digest()).rstrip(b"=").decode()
    query = urlencode({"response_type": "code", "client_id": web.client_id, "scope": "openid profile",
                       "redirect_uri": str(request.url_for("signin_callback")), "state": pending["s"],
                       "nonce": pending["n"], "code_challenge": challenge, "code_challenge_method": "S256"})
    response = RedirectResponse(f"{authorize}?{query}", status_code=303)
    _cookie(response, request, PENDING_COOKIE, web.seal.seal("pending", pending, PENDING_S), PENDING_S, "/auth")
    return response


@router.get("/callback", name="signin_callback")
def callback(request: Request, state: State, code: str | None = None,
             returned_state: Annotated[str | None, Query(alias="state")] = None,
             error: str | None = None) -> RedirectResponse:
    web = _sign_in(state)
    pending = web.seal.open("pending", request.cookies.get(PENDING_COOKIE, ""))
    if pending is None or not isinstance(pending.get("s"), str) or returned_state != pending["s"]:
        raise StaleSignIn("this sign-in expired or was not started here: start again from the page")
    if error is not None or not code:
        raise AuthenticationFailed("the identity provider did not sign you in")
    identity = web.verifier.verify(_id_token(web, request, code, str(pending["v"])), audience=web.client_id,
                                   nonce=str(pending["n"]))
    state.identity_sources.identity.provider_user(identity)
    value, session = web.seal.new_session(identity.user, identity.groups, identity.expires)
    response = RedirectResponse(str(request.url_for("page")), status_code=303)
    response.delete_cookie(PENDING_COOKIE, path="/auth")
    _cookie(response, request, SESSION_COOKIE, value, int(session.expires - web.seal.now()), "/")
    return response


def _id_token(web: WebSignIn, request: Request, code: str, verifier: str) -> str:
    """The ID token the provider gives for this code (the client secret and PKCE verifier prove it is ours)."""
    form = {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
            "redirect_uri": str(request.url_for("signin_callback"))}
    try:
        answer = httpx.post(_endpoint(web, "token_endpoint"), data=form, auth=(web.client_id, web.client_secret),
                            timeout=TOKEN_TIMEOUT_S)
        body: Any = answer.json()
    except (httpx.HTTPError, ValueError):
        raise ProviderDown("the identity provider cannot be reached: try again shortly") from None
    if answer.status_code != 200 or not isinstance(body, dict) or not isinstance(body.get("id_token"), str):
        raise AuthenticationFailed("the identity provider refused the sign-in code")
    return str(body["id_token"])


@router.get("/session")
def session_info(request: Request, state: State) -> JSONResponse:
    """Whether the page may offer the provider, and who is signed in with it (plus the CSRF token) if anyone."""
    web = state.identity_sources.web
    body: dict[str, Any] = {"provider": web is not None, "user": None}
    cookie = request.cookies.get(SESSION_COOKIE)
    if web is not None and cookie:
        try:
            session = web.seal.session(cookie, "GET", None)
        except ServiceError:
            return JSONResponse(body, headers={"Cache-Control": "no-store"})
        body.update(user=session.user, csrf=session.csrf)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@router.post("/logout")
def logout(request: Request, state: State) -> JSONResponse:
    """End the session (its CSRF token required); `redirect` is the provider's end-session page, or the page."""
    web = _sign_in(state)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie and web.seal.open("session", cookie) is not None:
        web.seal.session(cookie, "POST", request.headers.get(CSRF_HEADER))  # 403 without the CSRF token
    page = str(request.url_for("page"))
    end = web.provider.metadata.get("end_session_endpoint")
    target = f"{end}?{urlencode({'client_id': web.client_id, 'post_logout_redirect_uri': page})}" \
        if isinstance(end, str) else page
    response = JSONResponse({"redirect": target}, headers={"Cache-Control": "no-store"})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response

