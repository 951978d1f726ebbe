"""`POST /ask` and `POST /ask/stream`: a question in, the loop's answer out, for the authenticated user only."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter
from sse_starlette import EventSourceResponse
from starlette.concurrency import run_in_threadpool

from boundloop.domain.result import RunResult
from boundloop.service import metrics
from boundloop.service.dependencies import CurrentUser, State
from boundloop.service.models import AskRequest, error_responses
from boundloop.service.sse import SSE_MEDIA_TYPE, sse_response
from boundloop.service.streaming import open_stream

router = APIRouter(tags=["ask"])
ERRORS = error_responses(400, 401, 403, 404, 413, 422, 500, 503)
STREAM_DOC: dict[str, Any] = {
    "description": "Server-sent events: `span` (one per transition, with the budget used so far), then `result` "
                   "(the RunResult), or `error` if the run fails after the stream began.",
    "content": {SSE_MEDIA_TYPE: {"schema": {"type": "string"}}},
}


@router.post("/ask", response_model=RunResult, responses=ERRORS, summary="Ask a question and wait for the answer")
async def ask(body: AskRequest, user: CurrentUser, state: State) -> RunResult:
    """Cited claims, a fallback list or an honest abstention; never past the run's budget.

    With `conversation_id` (one of yours) the question may be a follow-up of that conversation; the result always
    names its conversation (a new one when none was given) and the standalone question it answered.
    """
    started = time.perf_counter()
    try:
        result = await run_in_threadpool(state.runner.ask, body.question, user, body.conversation_id)
    except Exception:
        metrics.record_failure("ask")
        raise
    metrics.record_run(result, time.perf_counter() - started, "ask", state.limits)
    return result


@router.post("/ask/stream", response_class=EventSourceResponse, responses={**ERRORS, 200: STREAM_DOC},
             summary="Ask a question and follow every transition")
async def ask_stream(body: AskRequest, user: CurrentUser, state: State) -> EventSourceResponse:
    """One `span` event per transition, then the `result` event; a client that disconnects cancels the run."""
    return sse_response(await open_stream(state, body.question, user, body.conversation_id))
