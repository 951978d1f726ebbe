"""FastAPI dependencies: the process's service state, and the caller's identity from their credential only."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPBearer

from boundloop.service.errors import Forbidden
from boundloop.service.oidc_tokens import TokenIdentity
from boundloop.service.state import ServiceState
from boundloop.service.web_session import CSRF_HEADER, SESSION_COOKIE

ADMIN_GROUP = "admin"

# Declared so the OpenAPI document shows both schemes; the raw headers are checked by `IdentityResolver`.
_bearer = HTTPBearer(auto_error=False, scheme_name="Bearer",
                     description="An API key, an HS256 JWT whose `sub` is the user, or a token from the "
                                 "configured OpenID provider.")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, scheme_name="ApiKey", description="An API key.")


def service_state(request: Request) -> ServiceState:
    state: ServiceState = request.app.state.boundloop
    return state


State = Annotated[ServiceState, Depends(service_state)]


def current_user(request: Request, state: State, _bearer_doc: Annotated[object, Depends(_bearer)],
                 _api_key_doc: Annotated[object, Depends(_api_key)]) -> str:
    """The user the credential belongs to; the request body never names the user.

    Every copy of each header goes to the resolver: a second `Authorization` header is a 401, not ignored. A request
    with neither header may carry the web sign-in's session cookie; a change under it needs its CSRF token.
    """
    headers = request.headers
    authorization, api_key = headers.getlist("authorization"), headers.getlist("x-api-key")
    web = state.identity_sources.web
    cookie = request.cookies.get(SESSION_COOKIE)
    if web is not None and cookie and not authorization and not api_key:  # the web page, signed in with the provider
        session = web.seal.session(cookie, request.method, headers.get(CSRF_HEADER))
        user = state.identity_sources.identity.provider_user(TokenIdentity(session.user, session.groups,
                                                                           session.expires))
    else:
        user = state.identity.user_for(authorization, api_key)
    request.state.user = user  # for the access log
    return user


CurrentUser = Annotated[str, Depends(current_user)]


def admin_user(user: CurrentUser, state: State) -> str:
    """The caller, if they are in the `admin` group; 403 otherwise."""
    if ADMIN_GROUP not in state.resolver.resolve(user).groups:  # the directory as it is now
        raise Forbidden(f"only members of the {ADMIN_GROUP!r} group may ingest documents")
    return user


AdminUser = Annotated[str, Depends(admin_user)]
