"""`GET /conversations`, `GET /conversations/{id}` and `DELETE /conversations/{id}`: the caller's own, nobody else's.

Another user's conversation is a 404, exactly like an unknown one, on every route (continuing one with `POST /ask`
too): whether a conversation exists is not another user's to learn.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response
from starlette.concurrency import run_in_threadpool

from boundloop.service.conversation_views import cursor_after, read_cursor, require_conversation, summary, view
from boundloop.service.dependencies import CurrentUser, State
from boundloop.service.models import ID_PATTERN, ConversationPage, ConversationView, error_responses

router = APIRouter(tags=["conversations"])
ConversationId = Annotated[str, Path(pattern=ID_PATTERN, description="The conversation_id from an ask response.")]
ERRORS = error_responses(401, 404, 422, 500)
MAX_PAGE = 100


@router.get("/conversations", response_model=ConversationPage, responses=ERRORS,
            summary="Your conversations, newest first")
async def list_conversations(
    user: CurrentUser, state: State,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Conversations per page.")] = 20,
    cursor: Annotated[str | None, Query(max_length=200, description="`next_cursor` of the page before.")] = None,
) -> ConversationPage:
    def read() -> ConversationPage:
        rows = state.store.conversations(user, limit + 1, read_cursor(cursor) if cursor else None)
        page = rows[:limit]
        return ConversationPage(conversations=[summary(row) for row in page],
                                next_cursor=cursor_after(page[-1]) if len(rows) > limit else None)

    return await run_in_threadpool(read)


@router.get("/conversations/{conversation_id}", response_model=ConversationView, responses=ERRORS,
            summary="A conversation's turns")
async def get_conversation(conversation_id: ConversationId, user: CurrentUser, state: State) -> ConversationView:
    """Every turn kept, oldest first: question, standalone question, answer, short answer, status, run_id, time."""
    def read() -> ConversationView:
        return view(state, require_conversation(state, conversation_id, user), user)

    return await run_in_threadpool(read)


@router.delete("/conversations/{conversation_id}", status_code=204, response_class=Response, responses=ERRORS,
               summary="Delete a conversation and its runs")
async def delete_conversation(conversation_id: ConversationId, user: CurrentUser, state: State) -> Response:
    """The conversation, its turns' runs, their traces and their feedback are deleted."""
    def delete() -> None:
        require_conversation(state, conversation_id, user)
        state.store.delete_conversation(conversation_id)

    await run_in_threadpool(delete)
    return Response(status_code=204)
