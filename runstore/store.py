"""The run store's one interface: checkpoints through `checkpointer`, and the registry of runs in SQL both stores share.

The registry says who owns each run and how it ended, for `/runs`, `boundloop stats` and ownership checks, and holds
the conversations the runs are turns of (`runstore.conversations`) and the feedback on them (`runstore.feedback`). It
lives beside the checkpoints but apart from them: the loop's state and trace never hold the user.
"""

from __future__ import annotations

import json
import logging
import time
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Literal

from langgraph.checkpoint.base import BaseCheckpointSaver

from boundloop.domain.result import RunResult
from boundloop.policies.errors import BoundloopError, StoreDamaged, StoreUnwritable
from boundloop.runstore.conversations import ConversationRecords, stored_result
from boundloop.runstore.feedback import FeedbackRecords
from boundloop.runstore.process import still_running, worker_id
from boundloop.runstore.retention import INTERRUPTED_AFTER_S, PRUNE_BATCH, Retention
from boundloop.runstore.sql import Migration, Sql

__all__ = ["Migration", "RunStore", "Sql", "StoreKind"]
log = logging.getLogger(__name__)

StoreKind = Literal["sqlite", "postgres"]
STATS_COLUMNS = ("query_class", "status", "complete", "stop_reason", "usage", "feedback_score")


def _document(stored: Any) -> dict[str, Any]:
    """A JSON column as read: text from SQLite, already parsed from PostgreSQL; {} when empty."""
    if stored is None:
        return {}
    return dict(json.loads(stored) if isinstance(stored, str | bytes) else stored)


class RunStore(ConversationRecords, FeedbackRecords):
    """Checkpoints and the run registry of one deployment, shared by every process that serves it.

    Implementations supply the connection (`_execute`, `_rows`, `_transaction`), how a JSON value is sent
    (`_json`), their migrations, the checkpointer and `close`; the registry's SQL is written once, here, with `?`
    placeholders.
    """

    kind: StoreKind
    checkpointer: BaseCheckpointSaver
    retention: Retention = Retention()
    damaged: bool = False
    """Set once the store was found damaged: runs then go unrecorded rather than fail."""
    refused_write: bool = False
    """Set when a write was refused (a full disk), cleared by the next run recorded whole: `/healthz` reports it."""

    def start(self, run_id: str, owner: str, question: str, conversation_id: str | None = None) -> None:
        """Record a run as it starts (unfinished until `finish`), with the process that runs it.

        With a `conversation_id` the run is the conversation's next turn; a conversation not yet known is made, with
        `owner` as its owner (the caller has checked that a known one is theirs).
        """
        now = time.time()
        with self._transaction() as sql:
            sql("INSERT INTO boundloop_runs (run_id, owner, created_at, question, worker, conversation_id) "
                "VALUES (?, ?, ?, ?, ?, ?)", run_id, owner, now, question, worker_id(), conversation_id)
            if conversation_id is not None:
                self._join(sql, conversation_id, owner, question, now)

    def finish(self, run_id: str, result: RunResult, context_chunks: Sequence[str] = ()) -> None:
        """Record how a run ended (what `stats` reads gets columns of its own), then apply retention a step.

        `context_chunks`: what the earlier turns a follow-up's standalone question leaned on showed.
        """
        self._execute(
            "UPDATE boundloop_runs SET status=?, query_class=?, complete=?, stop_reason=?, usage=?, result=?, "
            "context_chunks=? WHERE run_id=?",
            (result.status, result.query_class, result.complete, result.stop_reason,
             self._json(result.usage.model_dump_json()), self._json(result.model_dump_json()),
             json.dumps(sorted(context_chunks)) if context_chunks else None, run_id),
        )
        self.refused_write = False
        try:
            self.prune_step()
        except Exception:  # the run is recorded; a retention step that fails is retried after the next run
            log.warning("run retention step failed", exc_info=True)

    def count(self, status: str | None = None) -> int:
        """The runs kept, finished or not; or those with one status (`interrupted`, say)."""
        if status is None:
            return int(self._rows("SELECT count(*) AS n FROM boundloop_runs")[0]["n"])
        return int(self._rows("SELECT count(*) AS n FROM boundloop_runs WHERE status=?", (status,))[0]["n"])

    def prune_step(self, now: float | None = None) -> int:
        """Delete one batch of finished runs past the retention, oldest first: checkpoints, then registry rows."""
        cutoff = (now or time.time()) - self.retention.max_age_s
        old = self._rows("SELECT run_id FROM boundloop_runs WHERE created_at < ? AND status IS NOT NULL "
                         "ORDER BY created_at LIMIT ?", (cutoff, PRUNE_BATCH))
        over = self._rows("SELECT run_id, status FROM boundloop_runs ORDER BY created_at DESC LIMIT ? OFFSET ?",
                          (PRUNE_BATCH, self.retention.keep))
        doomed = list(dict.fromkeys([r["run_id"] for r in old] + [r["run_id"] for r in over if r["status"]]))
        if not doomed:
            return 0
        for run_id in doomed:
            self.checkpointer.delete_thread(run_id)
        marks = ", ".join("?" * len(doomed))
        conversations = self._rows(f"SELECT DISTINCT conversation_id FROM boundloop_runs WHERE run_id IN ({marks}) "
                                   "AND conversation_id IS NOT NULL", tuple(doomed))
        self._execute(f"DELETE FROM boundloop_runs WHERE run_id IN ({marks})", tuple(doomed))
        self._drop_empty_conversations([row["conversation_id"] for row in conversations])
        self._reclaim()
        return len(doomed)

    def delete_conversation(self, conversation_id: str) -> int:
        """Delete a conversation with every run of it (registry rows, feedback, checkpoints); the runs deleted."""
        runs = self._forget_conversation(conversation_id)
        for run_id in runs:
            self.checkpointer.delete_thread(run_id)
        self._reclaim()
        return len(runs)

    def prune(self) -> int:
        """Apply the retention in full, a batch at a time; the number of runs deleted."""
        total = 0
        while deleted := self.prune_step():
            total += deleted
        return total

    def mark_interrupted(self) -> int:
        """Mark `interrupted` the unfinished runs whose process has died (or, on another host, that are very old)."""
        now = time.time()
        rows = self._rows("SELECT run_id, worker, created_at FROM boundloop_runs WHERE status IS NULL")
        gone = [row["run_id"] for row in rows if still_running(row["worker"]) is False
                or (still_running(row["worker"]) is None and row["created_at"] < now - INTERRUPTED_AFTER_S)]
        for run_id in gone:
            self.interrupt(run_id)
        return len(gone)

    def write_problem(self) -> str | None:
        """Why the store cannot write now, or None: it writes one small row, and remembers a run's refused write."""
        try:
            self._execute("UPDATE boundloop_health SET checked_at=? WHERE id=1", (time.time(),))
        except (StoreUnwritable, StoreDamaged) as exc:
            log.error("run store check failed: %s", exc)
            return "the run store cannot write" if isinstance(exc, StoreUnwritable) else "the run store is damaged"
        if self.refused_write:  # a small row fits where a run's checkpoint did not
            return "the run store cannot write"
        return "the run store is damaged" if self.damaged else None

    def _refused(self, failure: BoundloopError | None) -> BoundloopError | None:
        """Note a refused write (for `/healthz`) and pass the failure on."""
        if isinstance(failure, StoreUnwritable):
            self.refused_write = True
        return failure

    def interrupt(self, run_id: str) -> None:
        """Mark an unfinished run interrupted: its process died, or the run stopped on an error."""
        self._execute("UPDATE boundloop_runs SET status='interrupted', complete=? WHERE run_id=? AND status IS NULL",
                      (False, run_id))

    def cancel(self, run_id: str) -> None:
        """Mark an unfinished run cancelled: whoever asked stopped reading before its end (an SSE client that left)."""
        self._execute("UPDATE boundloop_runs SET status='cancelled', complete=? WHERE run_id=? AND status IS NULL",
                      (False, run_id))

    def owner(self, run_id: str) -> str | None:
        rows = self._rows("SELECT owner FROM boundloop_runs WHERE run_id=?", (run_id,))
        return rows[0]["owner"] if rows else None

    def shown_chunks(self, run_id: str) -> set[str]:
        """Every chunk a finished run shows: its result's, and those of the earlier turns its question leaned on."""
        rows = self._rows("SELECT result, context_chunks FROM boundloop_runs WHERE run_id=?", (run_id,))
        result = stored_result(rows[0]["result"]) if rows else None
        if result is None:
            return set()
        return result.shown_chunks() | set(json.loads(rows[0]["context_chunks"] or "[]"))

    def result(self, run_id: str) -> RunResult | None:
        """The run's result, or None while it runs (or for an unknown run)."""
        rows = self._rows("SELECT result FROM boundloop_runs WHERE run_id=?", (run_id,))
        return stored_result(rows[0]["result"]) if rows else None

    def interrupted(self, run_id: str) -> bool:
        """Whether the run was left unfinished by a crash."""
        return self.status(run_id) == "interrupted"

    def status(self, run_id: str) -> str | None:
        """answered, abstained or fallback; interrupted or cancelled; None while it runs (or for an unknown run)."""
        rows = self._rows("SELECT status FROM boundloop_runs WHERE run_id=?", (run_id,))
        return rows[0]["status"] if rows else None

    def finished_runs(self) -> list[dict[str, Any]]:
        """The `stats` figures of every finished run (interrupted and cancelled ones are not); `usage` as a dict."""
        rows = self._rows(f"SELECT {', '.join(STATS_COLUMNS)} FROM boundloop_runs "
                          "WHERE status IS NOT NULL AND status NOT IN ('interrupted', 'cancelled')")
        return [{**row, "complete": int(bool(row["complete"])), "usage": _document(row["usage"])} for row in rows]

    def failure(self, exc: BaseException) -> BoundloopError | None:
        """The clear error an exception from this store (or its checkpointer) stands for: a full disk, damage."""
        return None

    @abstractmethod
    def _reclaim(self) -> None:
        """Give the space of deleted runs back (SQLite: to the file system)."""

    @abstractmethod
    def close(self) -> None: ...
