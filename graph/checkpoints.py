"""Checkpointers for the loop: every transition is persisted, so every run can be traced afterwards."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from domain import models
from domain.trace import Span
from domain.usage import Usage

# The loop's own records are the only non-builtin types a checkpoint may hold; nothing else is deserialised.
CHECKPOINT_TYPES = [
    models.Understanding, models.SubQuery, models.Plan, models.Evidence, models.Coverage, models.Conflict,
    models.Gap, models.Assessment, models.Refinement, models.Claim, models.Draft, models.Verdict, models.Citation,
    models.FallbackResult, Span, Usage,
]


def checkpoint_serde() -> JsonPlusSerializer:
    """A serializer that restores the loop's models and refuses any other custom type."""
    return JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_TYPES)


def sqlite_checkpointer(path: str | Path) -> BaseCheckpointSaver:
    """The default checkpointer: an SQLite file (WAL) shared by every process on the machine."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    saver = SqliteSaver(conn, serde=checkpoint_serde())
    saver.setup()
    return saver
