"""Who is calling: an API key, an HS256 JWT whose `sub` is the user, or a token from the company's OpenID provider.

API keys are matched by SHA-256 against the directory; provider tokens are checked by `service.oidc_tokens` when
`BOUNDLOOP_OIDC_ISSUER` is set.

The FastAPI app and the LangGraph server's `Auth` handler both use `IdentityResolver`, so the rules are the same on
every route. It fails closed: no credential, two credentials (two headers, or one header sent twice), a malformed
header, an unknown key, a bad or expired token (a time claim that is not a number included), a token that lives
longer than the configured maximum, or a token for a user the directory does not know is `AuthenticationFailed`,
and the message never says which users exist. A provider's token naming an account of the directory file is
refused too: the provider may let someone choose that name, and the file's groups, runs and conversations are the
account's, not theirs. The directory is read afresh for every request, so a deleted user or
key stops working as soon as the directory file changes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import jwt

from boundloop.policies.entitlements import DirectorySource
from boundloop.policies.settings import Settings
from boundloop.service.errors import AuthenticationFailed
from boundloop.service.oidc_tokens import OidcVerifier, TokenIdentity, token_algorithm

JWT_ALGORITHM = "HS256"
NAME_TAKEN = ("the identity provider's user has the name of an account in this server's directory file; an "
              "administrator must rename one of them")
JWT_LEEWAY_S = 30  # clock skew allowed between the token issuer and this server, on the lifetime only
DEFAULT_JWT_MAX_TTL_S: int = Settings.model_fields["jwt_max_ttl"].default


def _looks_like_jwt(token: str) -> bool:
    return token.count(".") == 2


def _one(values: Sequence[str], header: str) -> str | None:
    """The header's one value; a header sent twice is refused, whichever copy a proxy or framework would keep."""
    if len(values) > 1:
        raise AuthenticationFailed(f"send one credential: the {header} header was sent {len(values)} times")
    return values[0] if values else None


def credential(authorization: Sequence[str], api_key: Sequence[str]) -> str:
    """The one credential a request carries, from `X-API-Key` or `Authorization: Bearer` (every value of each)."""
    bearer, key = _one(authorization, "Authorization"), _one(api_key, "X-API-Key")
    if bearer and key:
        raise AuthenticationFailed("send one credential: Authorization or X-API-Key, not both")
    if key:
        return key.strip()
    if not bearer:
        raise AuthenticationFailed("missing credentials: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'")
    scheme, _, token = bearer.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthenticationFailed("the Authorization header must be 'Bearer <key or token>'")
    return token.strip()


def _numeric_date(claims: dict[str, Any], name: str) -> float | None:
    """A time claim as seconds (RFC 7519 NumericDate: a JSON number); anything else makes the token invalid.

    PyJWT accepts a digit string (`"exp": "1767225600"`) where a number belongs; the arithmetic on it below would
    fail with a 500, so a claim that is not a finite number is refused here like any other bad token.
    """
    value = claims.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AuthenticationFailed(f"invalid token: its {name!r} claim is not a number of seconds")
    try:
        seconds = float(value)
    except OverflowError:  # an integer too large for a float
        raise AuthenticationFailed(f"invalid token: its {name!r} claim is out of range") from None
    if not math.isfinite(seconds):
        raise AuthenticationFailed(f"invalid token: its {name!r} claim is out of range")
    return seconds


class IdentityResolver:
    """Turns the request's `Authorization` / `X-API-Key` headers into a directory user name."""

    def __init__(self, directory: DirectorySource, jwt_secret: str | None = None,
                 jwt_max_ttl_s: int = DEFAULT_JWT_MAX_TTL_S, clock: Callable[[], float] = time.time,
                 oidc: OidcVerifier | None = None, on_token: Callable[[TokenIdentity], None] | None = None) -> None:
        self._directory = directory
        self._oidc = oidc
        self._on_token = on_token
        self._jwt_secret = jwt_secret
        self._jwt_max_ttl_s = jwt_max_ttl_s
        self._clock = clock

    def user_for(self, authorization: Sequence[str], api_key: Sequence[str]) -> str:
        """The authenticated user; `AuthenticationFailed` otherwise. Each argument lists every value of its header.

        A registered API key wins over the JWT reading of the same string, so keys may contain dots.
        """
        token = credential(authorization, api_key)
        user = self._directory.current().user_for_api_key(token)
        if user is not None:
            return user
        if _looks_like_jwt(token):
            if self._oidc is not None and not (self._jwt_secret and token_algorithm(token) == JWT_ALGORITHM):
                return self._user_for_provider_token(self._oidc, token)
            return self._user_for_jwt(token)
        raise AuthenticationFailed("invalid credentials")

    def _user_for_provider_token(self, oidc: OidcVerifier, token: str) -> str:
        return self.provider_user(oidc.verify(token))

    def provider_user(self, identity: TokenIdentity) -> str:
        """The user of a verified provider identity (a token, or the web page's session).

        Its groups go to `on_token` so the run resolves the ones it names. A file account's name is refused: the
        file's groups, runs and conversations would be a stranger's.
        """
        if identity.user in self._directory.current().users:
            raise AuthenticationFailed(NAME_TAKEN)
        if self._on_token is not None:
            self._on_token(identity)
        return identity.user

    def _user_for_jwt(self, token: str) -> str:
        if not self._jwt_secret:
            raise AuthenticationFailed("invalid credentials")
        try:
            claims = jwt.decode(token, self._jwt_secret, algorithms=[JWT_ALGORITHM],
                                options={"require": ["sub", "exp"]})
        except jwt.PyJWTError:
            raise AuthenticationFailed("invalid or expired token") from None
        expires, issued, _ = (_numeric_date(claims, name) for name in ("exp", "iat", "nbf"))
        if expires is None:  # PyJWT requires it; kept explicit for the arithmetic below
            raise AuthenticationFailed("invalid or expired token")
        now = self._clock()
        start = min(issued, now) if issued is not None else now  # no `iat`: counted from now
        if expires - start > self._jwt_max_ttl_s + JWT_LEEWAY_S:
            raise AuthenticationFailed(f"the token lives longer than this server accepts ({self._jwt_max_ttl_s} s)")
        user = claims.get("sub")
        if not isinstance(user, str) or user not in self._directory.current().users:
            raise AuthenticationFailed("invalid credentials")
        return user
