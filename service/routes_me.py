"""`GET /me`: who the credential belongs to, so a client can check a key and greet its owner."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from boundloop.service.dependencies import CurrentUser, State
from boundloop.service.models import Me, error_responses

router = APIRouter(tags=["identity"])


@router.get("/me", response_model=Me, responses=error_responses(401, 500), summary="The caller")
async def me(user: CurrentUser, state: State) -> Me:
    """The caller's user name and display name; nothing about anyone else."""
    principal = await run_in_threadpool(state.resolver.resolve, user)  # the directory as it is now
    return Me(user=user, display_name=principal.display_name or user)
