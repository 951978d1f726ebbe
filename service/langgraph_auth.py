"""The LangGraph server's `Auth` (`auth` in langgraph.json): the same credentials as the FastAPI app, and ownership.

- authenticate: `Authorization: Bearer <key or JWT>` or `X-API-Key: <key>`, checked by `IdentityResolver` against
  the same directory (and the OpenID provider's keys when `BOUNDLOOP_OIDC_ISSUER` is set); the identity is the user
  name. A header sent twice is a 401, as on the FastAPI app; an unreachable LDAP directory is a 503.
- threads (and the runs on them) carry `metadata.owner`, written here from the identity and never from the
  request; every read, search, update, delete and run is filtered on it, so another user's thread is a 404.
- a run may not carry `context` or `configurable` values: the loop's run context is built on the server from the
  identity alone (`service.langgraph_graph`). Its question obeys the FastAPI limits (1 to 4,000 characters).
- only members of the `admin` group may write a thread's state: `POST /threads/{id}/state` (`update_state`),
  state supersteps, a run's `command` (resume or jump with state updates) and a run from an earlier checkpoint.
  Everyone else gets 403, so no client can rewrite the loop's counters.
- only admins may stop a run part way (`interrupt_before`, `interrupt_after`) or stream its raw callback events
  (`stream_mode: "events"`, every model call's own output among them): a run stopped part way shows work the
  verifier has not passed. Everyone else gets 403.
- assistants can be read, not changed; everything else (crons, the store) is denied.

The directory is read in a worker thread (it may reload the file), never on the event loop.
"""

from __future__ import annotations

from typing import Any

from langgraph_sdk import Auth
from starlette.concurrency import run_in_threadpool

from boundloop.loop.runner import validate_question
from boundloop.policies.errors import BoundloopError
from boundloop.service.dependencies import ADMIN_GROUP
from boundloop.service.errors import AuthenticationFailed, ServiceError
from boundloop.service.state import ServiceState, shared_state

auth = Auth()
OWNER = "owner"
STATE_WRITER = "state:write"  # the permission admins get: write thread state, send commands
Ctx = Auth.types.AuthContext
Filter = Auth.types.FilterType


def _header(scope: dict[str, Any], name: bytes) -> list[str]:
    """Every value of one header, from the ASGI scope (the server's `headers` dict keeps one of a repeated header)."""
    return [value.decode("latin-1") for key, value in scope.get("headers", []) if key.lower() == name]


@auth.authenticate
async def authenticate(scope: dict[str, Any]) -> Auth.types.MinimalUserDict:
    """The directory user owning the request's credential; 401 otherwise."""
    state = await run_in_threadpool(shared_state)  # the first call opens files: off the event loop
    try:
        user, permissions = await run_in_threadpool(
            _identify, state, _header(scope, b"authorization"), _header(scope, b"x-api-key"))
    except ServiceError as exc:  # 401, or 503 when the group directory cannot be asked
        raise Auth.exceptions.HTTPException(status_code=exc.status_code, detail=str(exc)) from None
    return {"identity": user, "permissions": permissions}


def _identify(state: ServiceState, authorization: list[str], api_key: list[str]) -> tuple[str, list[str]]:
    """The user and their permissions, from the directory as it is now."""
    user = state.identity.user_for(authorization, api_key)
    try:
        groups = state.resolver.resolve(user).groups
    except ServiceError:
        raise
    except BoundloopError:  # deleted between the two reads
        raise AuthenticationFailed("invalid credentials") from None
    return user, [STATE_WRITER] if ADMIN_GROUP in groups else []


def _refuse(status_code: int, detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status_code, detail=detail)


def _may_write_state(ctx: Ctx) -> bool:
    return STATE_WRITER in ctx.permissions


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
    """Metadata changes and run cancellation for the owner; state writes for admins only.

    The server sends a state write (`POST /threads/{id}/state`, supersteps) as an update with neither metadata nor
    an action; a metadata patch carries `metadata`, a run cancellation an `action`.
    """
    if "metadata" not in value and value.get("action") is None and not _may_write_state(ctx):
        raise _refuse(403, f"only members of the {ADMIN_GROUP!r} group may write a thread's state")
    if value.get("metadata") is not None and value.get("action") is None:
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
    """Runs act for the caller, and new threads are the caller's.

    No client context or configurable, a question of 1 to 4,000 characters, no command or checkpoint unless admin,
    and no interrupt or raw event stream unless admin.
    """
    kwargs = value.get("kwargs") or {}
    if kwargs.get("context"):
        raise _refuse(422, "runs of this graph take no context or configurable values: they act for the "
                           "authenticated caller")
    configurable = (kwargs.get("config") or {}).get("configurable") or {}
    writes_state = kwargs.get("command") is not None or "checkpoint_id" in configurable
    if writes_state and not _may_write_state(ctx):
        raise _refuse(403, f"only members of the {ADMIN_GROUP!r} group may send a command or run from a checkpoint")
    _check_unverified_views(ctx, kwargs)
    _check_input(kwargs.get("input"), resuming=writes_state)
    _stamp_owner(ctx, value)
    return _owned_by(ctx)


def _check_unverified_views(ctx: Ctx, kwargs: dict[str, Any]) -> None:
    """403 for a non-admin's run that would stop before the verifier decides, or stream what its calls return.

    A run interrupted part way leaves its unfinished state in the thread, and the `events` stream mode sends every
    callback event of the run, the reasoner's unverified draft among them: only what the verifier passed may ship.
    """
    if _may_write_state(ctx):
        return
    if kwargs.get("interrupt_before") or kwargs.get("interrupt_after"):
        raise _refuse(403, f"only members of the {ADMIN_GROUP!r} group may interrupt a run")
    if "events" in (kwargs.get("stream_mode") or ()):
        raise _refuse(403, f"only members of the {ADMIN_GROUP!r} group may stream a run's raw events")


def _check_input(run_input: Any, resuming: bool) -> None:
    """The same question rules as `POST /ask`: a string of 1 to 4,000 characters (an admin's resume needs none)."""
    if run_input is None and resuming:
        return
    if not isinstance(run_input, dict):
        raise _refuse(422, 'the run input must be {"question": "..."}')
    try:
        validate_question(run_input.get("question"))
    except BoundloopError as exc:
        raise _refuse(422, str(exc)) from None


@auth.on.assistants.read
async def read_assistant(ctx: Ctx, value: Auth.types.AssistantsRead) -> bool:
    return True


@auth.on.assistants.search
async def search_assistants(ctx: Ctx, value: Auth.types.AssistantsSearch) -> bool:
    return True
