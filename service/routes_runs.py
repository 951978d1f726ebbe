"""`GET /runs/{run_id}`, its `/trace` and its cited `/passages`: only the run's owner sees them; others get 404."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from starlette.concurrency import run_in_threadpool

from policies.budget import limits_as_usage
from policies.errors import BoundloopError
from service.dependencies import CurrentUser, State
from service.errors import NotFound
from service.models import PassagesResponse, RunView, TraceResponse, error_responses
from service.passages import cited_passages
from service.state import ServiceState

router = APIRouter(tags=["runs"])
RunId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="The run id from an ask response.")]
ERRORS = error_responses(401, 404, 422, 500)


def _owned(state: ServiceState, run_id: str, user: str) -> None:
    """404, not 403, for another user's run: whether a run id exists is itself not theirs to learn."""
    if state.store.owner(run_id) != user:
        raise NotFound(f"no run {run_id}")


@router.get("/runs/{run_id}", response_model=RunView, responses=ERRORS, summary="A run's result")
async def get_run(run_id: RunId, user: CurrentUser, state: State) -> RunView:
    def read() -> RunView:
        _owned(state, run_id, user)
        result = state.store.result(run_id)
        return RunView(run_id=run_id, finished=result is not None, result=result)

    return await run_in_threadpool(read)


@router.get("/runs/{run_id}/trace", response_model=TraceResponse, responses=ERRORS, summary="A run's transitions")
async def get_trace(run_id: RunId, user: CurrentUser, state: State) -> TraceResponse:
    def read() -> TraceResponse:
        _owned(state, run_id, user)
        try:
            spans = state.runner.trace(run_id)
        except BoundloopError:
            raise NotFound(f"no trace for run {run_id} yet") from None
        return TraceResponse(run_id=run_id, spans=spans, limits=limits_as_usage(state.limits))

    return await run_in_threadpool(read)


@router.get("/runs/{run_id}/passages", response_model=PassagesResponse, responses=ERRORS,
            summary="The passages a run's answer cites")
async def get_passages(run_id: RunId, user: CurrentUser, state: State) -> PassagesResponse:
    """The text behind each `[n]` marker: cited chunks of the caller's own run that the caller may still read."""
    def read() -> PassagesResponse:
        _owned(state, run_id, user)
        return PassagesResponse(run_id=run_id, passages=cited_passages(state, run_id, user))

    return await run_in_threadpool(read)
