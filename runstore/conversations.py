"""Conversations in the run registry: who owns each, its title, and its turns (the runs that name it).

A conversation is a row of its own (owner, title, times); its turns are the registry's runs with its id, in the order
they started. Runs go with the run retention, and a conversation goes with its last run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from boundloop.domain.conversation import MAX_CONTEXT_TURNS, Turn
from boundloop.domain.result import RunResult
from boundloop.runstore.sql import Sql, SqlStore

TITLE_CHARS = 200


@dataclass(frozen=True)
class ConversationRow:
    """One conversation as the registry keeps it."""

    conversation_id: str
    owner: str
    title: str
    created_at: float
    updated_at: float
    turns: int


@dataclass(frozen=True)
class TurnRow:
    """One turn: the run, its question as asked, when it started, how it ended (None while it runs) and its result."""

    run_id: str
    question: str
    created_at: float
    status: str | None
    result: RunResult | None
    context_chunks: tuple[str, ...] = ()
    """What the earlier turns its standalone question leaned on showed."""

    def shown_chunks(self) -> set[str]:
        """Every chunk the turn shows: its result's and its context's (none while it runs)."""
        return (self.result.shown_chunks() | set(self.context_chunks)) if self.result else set()


def stored_result(stored: Any) -> RunResult | None:
    if stored is None:
        return None
    return RunResult.model_validate(json.loads(stored) if isinstance(stored, str | bytes) else stored)


_COLUMNS = ("c.conversation_id, c.owner, c.title, c.created_at, c.updated_at, "
            "(SELECT count(*) FROM boundloop_runs r WHERE r.conversation_id = c.conversation_id) AS turns")


def _conversation(row: dict[str, Any]) -> ConversationRow:
    return ConversationRow(conversation_id=row["conversation_id"], owner=row["owner"], title=row["title"],
                           created_at=float(row["created_at"]), updated_at=float(row["updated_at"]),
                           turns=int(row["turns"]))


class ConversationRecords(SqlStore):
    """The conversations of every user; callers check ownership (`conversation_owner`) before anything else."""

    @staticmethod
    def _join(sql: Sql, conversation_id: str, owner: str, question: str, now: float) -> None:
        """Inside a run's start: make the conversation (titled by its first question), or mark it updated."""
        sql("INSERT INTO boundloop_conversations (conversation_id, owner, created_at, updated_at, title) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (conversation_id) DO UPDATE SET updated_at = excluded.updated_at",
            conversation_id, owner, now, now, " ".join(question.split())[:TITLE_CHARS])

    def conversation_owner(self, conversation_id: str) -> str | None:
        rows = self._rows("SELECT owner FROM boundloop_conversations WHERE conversation_id=?", (conversation_id,))
        return rows[0]["owner"] if rows else None

    def conversation(self, conversation_id: str) -> ConversationRow | None:
        rows = self._rows(f"SELECT {_COLUMNS} FROM boundloop_conversations c WHERE c.conversation_id=?",
                          (conversation_id,))
        return _conversation(rows[0]) if rows else None

    def conversations(self, owner: str, limit: int, before: tuple[float, str] | None = None) -> list[ConversationRow]:
        """The owner's conversations, most recently updated first; `before` continues after (updated_at, id)."""
        where, params = "c.owner=?", list[Any]([owner])
        if before is not None:
            where += " AND (c.updated_at < ? OR (c.updated_at = ? AND c.conversation_id < ?))"
            params += [before[0], before[0], before[1]]
        rows = self._rows(f"SELECT {_COLUMNS} FROM boundloop_conversations c WHERE {where} "
                          "ORDER BY c.updated_at DESC, c.conversation_id DESC LIMIT ?", (*params, limit))
        return [_conversation(row) for row in rows]

    def turn_rows(self, conversation_id: str, last: int | None = None) -> list[TurnRow]:
        """The conversation's turns, oldest first; with `last`, only the last that many."""
        limit = "" if last is None else f" LIMIT {int(last)}"
        rows = self._rows("SELECT run_id, question, created_at, status, result, context_chunks FROM boundloop_runs "
                          f"WHERE conversation_id=? ORDER BY created_at DESC, run_id DESC{limit}", (conversation_id,))
        return [TurnRow(run_id=row["run_id"], question=row["question"], created_at=float(row["created_at"]),
                        status=row["status"], result=stored_result(row["result"]),
                        context_chunks=tuple(json.loads(row["context_chunks"] or "[]"))) for row in reversed(rows)]

    def context_turns(self, conversation_id: str) -> list[Turn]:
        """What a follow-up may lean on: the last `MAX_CONTEXT_TURNS` finished turns, as their user was shown them."""
        return [Turn.shown(row.question, row.result, row.context_chunks)
                for row in self.turn_rows(conversation_id, MAX_CONTEXT_TURNS) if row.result is not None]

    def _forget_conversation(self, conversation_id: str) -> list[str]:
        """Delete the conversation and its runs' rows; the runs deleted (their checkpoints are the caller's)."""
        with self._transaction() as sql:
            runs = [row["run_id"] for row in sql("SELECT run_id FROM boundloop_runs WHERE conversation_id=?",
                                                 conversation_id)]
            sql("DELETE FROM boundloop_runs WHERE conversation_id=?", conversation_id)
            sql("DELETE FROM boundloop_conversations WHERE conversation_id=?", conversation_id)
        return runs

    def _drop_empty_conversations(self, conversation_ids: list[str]) -> None:
        """After runs were pruned: their conversations that have no run left go too."""
        if not conversation_ids:
            return
        marks = ", ".join("?" * len(conversation_ids))
        self._execute(f"DELETE FROM boundloop_conversations WHERE conversation_id IN ({marks}) AND NOT EXISTS "
                      "(SELECT 1 FROM boundloop_runs r "
                      "WHERE r.conversation_id = boundloop_conversations.conversation_id)", tuple(conversation_ids))
