"""Where runs are kept: SQLite files beside the index by default, PostgreSQL when `BOUNDLOOP_CHECKPOINT_URL` is set.

Either way every worker process opens the same store, so a run started by one worker is readable from any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.registry import RunRegistry
from graph.runner import CHECKPOINT_FILE, sqlite_checkpointer
from service.run_store import RunStore

StoreKind = Literal["sqlite", "postgres"]


@dataclass
class Persistence:
    """The checkpointer the loop writes every step to, and the registry of run owners and results."""

    kind: StoreKind
    checkpointer: BaseCheckpointSaver
    registry: RunStore
    close: Callable[[], None]


def open_sqlite(state_dir: Path) -> Persistence:
    """Checkpoints and registry in one WAL-mode SQLite file, shared by the processes of one machine."""
    path = state_dir / CHECKPOINT_FILE
    checkpointer = sqlite_checkpointer(path)
    registry = RunRegistry(path)

    def close() -> None:
        registry.close()
        checkpointer.conn.close()  # type: ignore[attr-defined]

    return Persistence("sqlite", checkpointer, registry, close)


def open_persistence(checkpoint_url: str | None, state_dir: Path) -> Persistence:
    """PostgreSQL when a URL is given, else SQLite in `state_dir`."""
    if checkpoint_url:
        from service.postgres_persistence import open_postgres

        return open_postgres(checkpoint_url)
    return open_sqlite(state_dir)
