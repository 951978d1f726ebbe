"""The LangGraph server's `Auth` (`auth` in langgraph.json): the same credentials as the FastAPI app, and ownership.

- authenticate: `Authorization: Bearer <key or JWT>` or `X-API-Key: <key>`, checked by `IdentityResolver` against
  the same directory; the identity is the directory user name.
- threads (and the runs on them) carry `metadata.owner`, written here from the identity and never from the
  request; every read, search, update, delete and run is filtered on it, so another user's thread is a 404.
- a run may not carry `context` or `configurable` values: the loop's run context is built on the server from the
  identity alone (`service.langgraph_graph`).
- assistants can be read, not changed; everything else (crons, the store) is denied.
"""

from __future__ import annotations

from typing import Any

from langgraph_sdk import Auth
from starlette.concurrency import run_in_threadpool

from service.errors import AuthenticationFailed
from service.state import shared_state

auth = Auth()
OWNER = "owner"
Ctx = Auth.types.AuthContext
Filter = Auth.types.FilterType


def _header(headers: dict[bytes, bytes], name: bytes) -> str | None:
    value = headers.get(name)
    return value.decode("latin-1") if value is not None else None


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes]) -> Auth.types.MinimalUserDict:
    """The directory user owning the request's credential; 401 otherwise."""
    state = await run_in_threadpool(shared_state)  # the first call opens files: off the event loop
    try:
        user = state.identity.user_for(_header(headers, b"authorization"), _header(headers, b"x-api-key"))
    except AuthenticationFailed as exc:
        raise Auth.exceptions.HTTPException(status_code=401, detail=str(exc)) from None
    return {"identity": user, "permissions": []}


@auth.on
async def deny_everything_else(ctx: Ctx, value: Any) -> bool:
    """Default deny: crons, the store, and changes to assistants."""
    return False


def _owned_by(ctx: Ctx) -> Filter:
    return {OWNER: ctx.user.identity}


def _stamp_owner(ctx: Ctx, value: Any) -> None:
    """Write the owner in place (the server keeps the same dict); a client-supplied owner is overwritten."""
    if value.get("metadata") is None:
        value["metadata"] = {}
    value["metadata"][OWNER] = ctx.user.identity


@auth.on.threads.create
async def create_thread(ctx: Ctx, value: Auth.types.ThreadsCreate) -> Filter:
    _stamp_owner(ctx, value)
    return _owned_by(ctx)


@auth.on.threads.update
async def update_thread(ctx: Ctx, value: Auth.types.ThreadsUpdate) -> Filter:
    if value.get("metadata") is not None:
        _stamp_owner(ctx, value)
    return _owned_by(ctx)


@auth.on.threads.read
async def read_thread(ctx: Ctx, value: Auth.types.ThreadsRead) -> Filter:
    return _owned_by(ctx)


@auth.on.threads.delete
async def delete_thread(ctx: Ctx, value: Auth.types.ThreadsDelete) -> Filter:
    return _owned_by(ctx)


@auth.on.threads.search
async def search_threads(ctx: Ctx, value: Auth.types.ThreadsSearch) -> Filter:
    return _owned_by(ctx)


@auth.on.threads.create_run
async def create_run(ctx: Ctx, value: Auth.types.RunsCreate) -> Filter:
    """Runs act for the caller: no client context or configurable, and new threads are the caller's."""
    kwargs = value.get("kwargs") or {}
    if kwargs.get("context"):
        raise Auth.exceptions.HTTPException(
            status_code=422,
            detail="runs of this graph take no context or configurable values: they act for the authenticated caller",
        )
    _stamp_owner(ctx, value)
    return _owned_by(ctx)


@auth.on.assistants.read
async def read_assistant(ctx: Ctx, value: Auth.types.AssistantsRead) -> bool:
    return True


@auth.on.assistants.search
async def search_assistants(ctx: Ctx, value: Auth.types.AssistantsSearch) -> bool:
    return True
