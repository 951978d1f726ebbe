"""Who is calling: an API key (matched by SHA-256 against the directory) or an HS256 JWT whose `sub` is the user.

The FastAPI app and the LangGraph server's `Auth` handler both use `IdentityResolver`, so the rules are the same on
every route. It fails closed: no credential, a malformed header, an unknown key, a bad or expired token, a token
that lives longer than the configured maximum, or a token for a user the directory does not know is
`AuthenticationFailed`, and the message never says which users exist. The directory is read afresh for every
request, so a deleted user or key stops working as soon as the directory file changes.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import jwt

from boundloop.policies.entitlements import DirectorySource
from boundloop.service.errors import AuthenticationFailed

JWT_ALGORITHM = "HS256"
JWT_LEEWAY_S = 30  # clock skew allowed between the token issuer and this server, on the lifetime only
DEFAULT_JWT_MAX_TTL_S = 24 * 3600


def _looks_like_jwt(token: str) -> bool:
    return token.count(".") == 2


def credential(authorization: str | None, api_key: str | None) -> str:
    """The one credential a request carries, from `X-API-Key` or `Authorization: Bearer`."""
    if authorization and api_key:
        raise AuthenticationFailed("send one credential: Authorization or X-API-Key, not both")
    if api_key:
        return api_key.strip()
    if not authorization:
        raise AuthenticationFailed("missing credentials: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'")
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthenticationFailed("the Authorization header must be 'Bearer <key or token>'")
    return token.strip()


class IdentityResolver:
    """Turns the request's `Authorization` / `X-API-Key` headers into a directory user name."""

    def __init__(self, directory: DirectorySource, jwt_secret: str | None = None,
                 jwt_max_ttl_s: int = DEFAULT_JWT_MAX_TTL_S, clock: Callable[[], float] = time.time) -> None:
        self._directory = directory
        self._jwt_secret = jwt_secret
        self._jwt_max_ttl_s = jwt_max_ttl_s
        self._clock = clock

    def user_for(self, authorization: str | None, api_key: str | None) -> str:
        """The authenticated user; `AuthenticationFailed` otherwise.

        A registered API key wins over the JWT reading of the same string, so keys may contain dots.
        """
        token = credential(authorization, api_key)
        user = self._directory.current().user_for_api_key(token)
        if user is not None:
            return user
        if _looks_like_jwt(token):
            return self._user_for_jwt(token)
        raise AuthenticationFailed("invalid credentials")

    def _user_for_jwt(self, token: str) -> str:
        if not self._jwt_secret:
            raise AuthenticationFailed("invalid credentials")
        try:
            claims = jwt.decode(token, self._jwt_secret, algorithms=[JWT_ALGORITHM],
                                options={"require": ["sub", "exp"]})
        except jwt.PyJWTError:
            raise AuthenticationFailed("invalid or expired token") from None
        now, issued = self._clock(), claims.get("iat")
        start = min(issued, now) if isinstance(issued, int | float) else now  # no `iat`: counted from now
        if claims["exp"] - start > self._jwt_max_ttl_s + JWT_LEEWAY_S:
            raise AuthenticationFailed(f"the token lives longer than this server accepts ({self._jwt_max_ttl_s} s)")
        user = claims.get("sub")
        if not isinstance(user, str) or user not in self._directory.current().users:
            raise AuthenticationFailed("invalid credentials")
        return user
