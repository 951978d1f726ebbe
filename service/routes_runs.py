"""`GET /runs/{run_id}`, its `/trace` and cited `/passages`, and `POST /runs/{run_id}/feedback`: the owner's only.

Others get 404. The owner gets 403 for the run and its trace once they show a chunk the owner may no longer read
(`service.run_access`); `/passages` leaves such chunks out.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Path
from starlette.concurrency import run_in_threadpool

from boundloop.domain.feedback import Rating
from boundloop.policies.errors import BoundloopError
from boundloop.policies.limits import limits_as_usage, shown
from boundloop.service.dependencies import CurrentUser, State
from boundloop.service.errors import Conflict, NotFound
from boundloop.service.models import (
    ID_PATTERN,
    FeedbackView,
    LimitView,
    PassagesResponse,
    RunView,
    TraceResponse,
    error_responses,
)
from boundloop.service.passages import cited_passages
from boundloop.service.run_access import evidence_chunks, require_owner, require_readable

router = APIRouter(tags=["runs"])
RunId = Annotated[str, Path(pattern=ID_PATTERN, description="The run id from an ask response.")]
ERRORS = error_responses(401, 403, 404, 422, 500)


@router.get("/runs/{run_id}", response_model=RunView, responses=ERRORS, summary="A run's result")
async def get_run(run_id: RunId, user: CurrentUser, state: State) -> RunView:
    def read() -> RunView:
        require_owner(state, run_id, user)
        result = state.store.result(run_id)
        if result is not None:
            require_readable(state, user, state.store.shown_chunks(run_id))
        status = None if result is not None else state.store.status(run_id)
        return RunView(run_id=run_id, finished=result is not None, result=result,
                       interrupted=status == "interrupted", cancelled=status == "cancelled",
                       feedback=state.store.feedback(run_id))

    return await run_in_threadpool(read)


@router.post("/runs/{run_id}/feedback", response_model=FeedbackView, responses=error_responses(401, 404, 409, 422, 500),
             summary="Rate an answer of yours")
async def post_feedback(run_id: RunId, body: Rating, user: CurrentUser, state: State,
                        background: BackgroundTasks) -> FeedbackView:
    """`{"score": 1 | -1, "comment"?: at most 2,000 characters}`; a new rating replaces the last.

    Stored with the run (and shown by `GET /runs/{run_id}`), counted by `boundloop stats`, and sent to LangSmith as
    feedback on the run's trace when tracing is configured.
    """
    def record() -> FeedbackView:
        require_owner(state, run_id, user)
        if state.store.result(run_id) is None:
            raise Conflict(f"run {run_id} has not finished")
        stored = state.store.record_feedback(run_id, body)
        return FeedbackView(run_id=run_id, **stored.model_dump())

    view = await run_in_threadpool(record)
    background.add_task(state.langsmith.send, run_id, view)
    return view


@router.get("/runs/{run_id}/trace", response_model=TraceResponse, responses=ERRORS, summary="A run's transitions")
async def get_trace(run_id: RunId, user: CurrentUser, state: State) -> TraceResponse:
    def read() -> TraceResponse:
        require_owner(state, run_id, user)
        try:
            spans = state.runner.trace(run_id)
        except BoundloopError:
            raise NotFound(f"no trace for run {run_id} yet") from None
        require_readable(state, user, evidence_chunks(state.runner.evidence(run_id)) | state.store.shown_chunks(run_id))
        return TraceResponse(run_id=run_id, spans=spans, limits=limits_as_usage(state.limits),
                             budget=[LimitView.of(bound) for bound in shown(state.limits)])

    return await run_in_threadpool(read)


@router.get("/runs/{run_id}/passages", response_model=PassagesResponse, responses=ERRORS,
            summary="The passages a run's answer cites")
async def get_passages(run_id: RunId, user: CurrentUser, state: State) -> PassagesResponse:
    """The text behind each `[n]` marker: cited chunks of the caller's own run that the caller may still read."""
    def read() -> PassagesResponse:
        require_owner(state, run_id, user)
        return PassagesResponse(run_id=run_id, passages=cited_passages(state, run_id, user))

    return await run_in_threadpool(read)
