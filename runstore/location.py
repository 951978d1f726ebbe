"""Which run store a process opens: PostgreSQL when `BOUNDLOOP_CHECKPOINT_URL` is set, else SQLite `runs.db`.

The SQLite file lives beside an index folder (so the CLI and the service see the same runs), or in the cache for an
index on a server. The CLI and the service both open their store here.
"""

from __future__ import annotations

import os
from pathlib import Path

from policies.errors import BoundloopError
from retrieval.config import POSTGRES_SCHEMES
from retrieval.embeddings import cache_dir
from runstore.retention import Retention
from runstore.store import RunStore

RUNS_FILE = "runs.db"


def checkpoint_url_from_env() -> str | None:
    """`BOUNDLOOP_CHECKPOINT_URL`, checked: a postgresql:// URL, or None for SQLite."""
    url = os.environ.get("BOUNDLOOP_CHECKPOINT_URL") or None
    if url and not url.startswith(POSTGRES_SCHEMES):
        raise BoundloopError("BOUNDLOOP_CHECKPOINT_URL must be a postgresql:// URL (unset it for SQLite)")
    return url


def state_dir(index: str) -> Path:
    """Where SQLite keeps runs for an index: beside an index folder, else the local cache."""
    return cache_dir() if "://" in index else Path(index)


def open_run_store(checkpoint_url: str | None, folder: Path) -> RunStore:
    """PostgreSQL when a URL is given, else SQLite in `folder`."""
    if checkpoint_url:
        try:
            from runstore.postgres import PostgresRunStore
        except ImportError:
            raise BoundloopError("PostgreSQL checkpoints need the extra: pip install 'boundloop[postgres]'") from None
        return PostgresRunStore(checkpoint_url, retention=Retention.from_env())
    from runstore.sqlite import SqliteRunStore

    return SqliteRunStore(folder / RUNS_FILE, retention=Retention.from_env())
