"""A caller's conversations as the API shows them: only their own, and only what they may still read.

A turn that showed a chunk its owner may no longer read (a group removed, a document re-labelled or deleted) is
withheld: only the question as asked is shown. What a turn showed includes what the earlier turns its standalone
question leaned on showed ("Where does she sit?" -> "Where does <a name from an earlier answer> sit?"). Access is
decided again on every read, as for `GET /runs/{id}`.
"""

from __future__ import annotations

import base64
import binascii
from datetime import UTC, datetime
from typing import Literal

from boundloop.runstore.conversations import ConversationRow, TurnRow
from boundloop.service.errors import InvalidInput, NotFound
from boundloop.service.models import ConversationSummary, ConversationTurn, ConversationView
from boundloop.service.state import ServiceState


def _time(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def require_conversation(state: ServiceState, conversation_id: str, user: str) -> ConversationRow:
    """The caller's conversation; another user's is a 404 like an unknown one (its existence is not theirs)."""
    row = state.store.conversation(conversation_id)
    if row is None or row.owner != user:
        raise NotFound(f"no conversation {conversation_id}")
    return row


def summary(row: ConversationRow) -> ConversationSummary:
    return ConversationSummary(conversation_id=row.conversation_id, title=row.title, created_at=_time(row.created_at),
                               updated_at=_time(row.updated_at), turns=row.turns)


def cursor_after(row: ConversationRow) -> str:
    """An opaque cursor: the page after `row` (its update time and id)."""
    return base64.urlsafe_b64encode(f"{row.updated_at!r}/{row.conversation_id}".encode()).decode().rstrip("=")


def read_cursor(cursor: str) -> tuple[float, str]:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        updated, _, conversation_id = text.partition("/")
        return float(updated), conversation_id
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidInput("cursor is not one this service gave out") from None


def _readable(state: ServiceState, user: str, rows: list[TurnRow]) -> set[str]:
    shown = sorted({chunk for row in rows for chunk in row.shown_chunks()})
    return set(state.backend.load_chunks(shown, state.resolver.access_filter(user))) if shown else set()


Unfinished = Literal["running", "interrupted", "cancelled"]


def _unfinished(status: str | None) -> Unfinished:
    """A turn with no result: stopped by a crash, cancelled by its reader leaving, or still running."""
    return "interrupted" if status == "interrupted" else "cancelled" if status == "cancelled" else "running"


def view(state: ServiceState, row: ConversationRow, user: str) -> ConversationView:
    """The conversation with every turn, oldest first, each as much as the caller may still see."""
    rows = state.store.turn_rows(row.conversation_id)
    readable = _readable(state, user, rows)
    turns = []
    for turn in rows:
        result = turn.result
        hidden = not turn.shown_chunks() <= readable
        status = result.status if result else _unfinished(turn.status)
        turns.append(ConversationTurn(
            run_id=turn.run_id, question=turn.question, status=status, time=_time(turn.created_at), withheld=hidden,
            standalone_question=None if hidden or result is None else result.standalone_question,
            answer=None if hidden or result is None else result.answer,
            short_answer=None if hidden or result is None else result.short_answer))
    return ConversationView(conversation_id=row.conversation_id, title=row.title, created_at=_time(row.created_at),
                            updated_at=_time(row.updated_at), turns=turns)
