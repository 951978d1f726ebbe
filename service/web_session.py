"""The web page's session after signing in with the provider: a signed, HttpOnly cookie, and its CSRF token.

The cookie holds the user, their groups from the ID token, when it ends (the ID token's expiry) and a random CSRF
token, signed with HMAC-SHA256 under a key derived from the client secret, so every worker reads every worker's
sessions and no server-side store is needed. The provider's tokens never leave the server: the page's scripts see
neither them nor the cookie, only the CSRF token, which every POST, PUT, PATCH or DELETE under the cookie must send
back in `X-CSRF-Token` (a cross-site form cannot set that header, and a cross-site script cannot read the token).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from boundloop.service.errors import AuthenticationFailed, Forbidden

SESSION_COOKIE = "boundloop_session"
PENDING_COOKIE = "boundloop_signin"  # state, nonce and PKCE verifier between the redirect and the callback
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_SESSION_S = 12 * 3600  # even when the ID token says longer
PENDING_S = 600


@dataclass(frozen=True)
class WebSession:
    """A signed-in person: who, their groups (None: the token named none), until when, and the CSRF token."""

    user: str
    groups: frozenset[str] | None
    expires: float
    csrf: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SessionSeal:
    """Signs and checks the two cookies; `purpose` keeps a pending-sign-in cookie from passing as a session."""

    def __init__(self, client_secret: str, clock: Callable[[], float] = time.time) -> None:
        self._key = hashlib.sha256(b"boundloop web session\x00" + client_secret.encode()).digest()
        self._clock = clock

    def now(self) -> float:
        return self._clock()

    def seal(self, purpose: str, payload: Mapping[str, object], lifetime_s: float) -> str:
        body = _b64(json.dumps({**payload, "p": purpose, "x": self._clock() + lifetime_s}).encode())
        return body + "." + self._mac(body)

    def open(self, purpose: str, value: str) -> dict[str, object] | None:
        """The payload, or None when the cookie is forged, altered, for another purpose or expired."""
        body, _, mac = value.partition(".")
        if not hmac.compare_digest(mac, self._mac(body)):
            return None
        try:
            payload = json.loads(_unb64(body))
        except ValueError:
            return None
        if not isinstance(payload, dict) or payload.get("p") != purpose:
            return None
        expires = payload.get("x")
        if not isinstance(expires, int | float) or expires <= self._clock():
            return None
        return payload

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._key, body.encode(), hashlib.sha256).digest())

    def new_session(self, user: str, groups: frozenset[str] | None, token_expires: float) -> tuple[str, WebSession]:
        """The cookie value for a person who just signed in, and the session it stands for."""
        lifetime = max(0.0, min(token_expires - self._clock(), MAX_SESSION_S))
        session = WebSession(user, groups, self._clock() + lifetime, secrets.token_urlsafe(24))
        payload = {"u": user, "g": sorted(groups) if groups is not None else None, "c": session.csrf}
        return self.seal("session", payload, lifetime), session

    def session(self, value: str, method: str, csrf_header: str | None) -> WebSession:
        """The session a cookie holds; 401 when it is not valid, 403 for a change sent without its CSRF token."""
        payload = self.open("session", value)
        if payload is None:
            raise AuthenticationFailed("your session has ended: sign in again")
        user, groups, csrf, expires = payload.get("u"), payload.get("g"), payload.get("c"), payload.get("x")
        if not isinstance(user, str) or not isinstance(csrf, str) or not isinstance(expires, int | float):
            raise AuthenticationFailed("your session has ended: sign in again")
        if method.upper() not in SAFE_METHODS and not hmac.compare_digest(csrf_header or "", csrf):
            raise Forbidden("this change needs the page's CSRF token (X-CSRF-Token)")
        names = frozenset(g for g in groups if isinstance(g, str)) if isinstance(groups, list) else None
        return WebSession(user, names, float(expires), csrf)
