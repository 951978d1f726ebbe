"""Who is calling: an API key (matched by SHA-256 against the directory) or an HS256 JWT whose `sub` is the user.

The FastAPI app and the LangGraph server's `Auth` handler both use `IdentityResolver`, so the rules are the same on
every route. It fails closed: no credential, a malformed header, an unknown key, a bad or expired token, or a token
for a user the directory does not know is `AuthenticationFailed`, and the message never says which users exist.
"""

from __future__ import annotations

import jwt

from policies.entitlements import Directory
from service.errors import AuthenticationFailed

JWT_ALGORITHM = "HS256"


def _looks_like_jwt(token: str) -> bool:
    return token.count(".") == 2


class IdentityResolver:
    """Turns the request's `Authorization` / `X-API-Key` headers into a directory user name."""

    def __init__(self, directory: Directory, jwt_secret: str | None = None) -> None:
        self._directory = directory
        self._jwt_secret = jwt_secret

    def user_for(self, authorization: str | None, api_key: str | None) -> str:
        """The authenticated user; `AuthenticationFailed` otherwise."""
        token = self._credential(authorization, api_key)
        if _looks_like_jwt(token):
            return self._user_for_jwt(token)
        user = self._directory.user_for_api_key(token)
        if user is None:
            raise AuthenticationFailed("invalid credentials")
        return user

    @staticmethod
    def _credential(authorization: str | None, api_key: str | None) -> str:
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

    def _user_for_jwt(self, token: str) -> str:
        if not self._jwt_secret:
            raise AuthenticationFailed("invalid credentials")
        try:
            claims = jwt.decode(token, self._jwt_secret, algorithms=[JWT_ALGORITHM],
                                options={"require": ["sub", "exp"]})
        except jwt.PyJWTError:
            raise AuthenticationFailed("invalid or expired token") from None
        user = claims.get("sub")
        if not isinstance(user, str) or user not in self._directory.users:
            raise AuthenticationFailed("invalid credentials")
        return user
