"""Which run store a process opens: PostgreSQL when `BOUNDLOOP_CHECKPOINT_URL` is set, else SQLite `runs.db`.

The SQLite file lives in `BOUNDLOOP_STATE_DIR` when it is set, else beside an index folder (so the CLI and the
service see the same runs), or in the cache for an index on a server. The CLI and the service both open it here.
"""

from __future__ import annotations

import os
from pathlib import Path

from boundloop.policies.errors import BoundloopError, StoreUnwritable
from boundloop.policies.settings import Settings, settings
from boundloop.retrieval.cache import cache_dir
from boundloop.retrieval.config import is_server_url
from boundloop.runstore.retention import Retention
from boundloop.runstore.store import RunStore

RUNS_FILE = "runs.db"


def checkpoint_url_from_env(configured: Settings | None = None) -> str | None:
    """`BOUNDLOOP_CHECKPOINT_URL`, checked: a postgresql:// URL, or None for SQLite."""
    url = (configured or settings()).checkpoint_url
    if url and not is_server_url(url):
        raise BoundloopError("BOUNDLOOP_CHECKPOINT_URL must be a postgresql:// URL (unset it for SQLite)")
    return url


def state_dir(index: str) -> Path:
    """Where SQLite keeps runs: `BOUNDLOOP_STATE_DIR`, else beside an index folder, else (a server index) the cache.

    An index in a folder that cannot be written is still searched; its runs need `BOUNDLOOP_STATE_DIR`.
    """
    configured = settings().state_dir
    if configured:
        return Path(configured)
    if "://" in index:
        return cache_dir()
    folder = Path(index)
    if folder.exists() and not os.access(folder, os.W_OK):
        raise StoreUnwritable(f"the index folder {folder} is read-only, so runs cannot be kept beside it: set "
                              "BOUNDLOOP_STATE_DIR to a folder that can be written")
    return folder


def open_run_store(checkpoint_url: str | None, folder: Path) -> RunStore:
    """PostgreSQL when a URL is given, else SQLite in `folder`."""
    if checkpoint_url:
        try:
            from boundloop.runstore.postgres import PostgresRunStore
        except ImportError:
            raise BoundloopError("PostgreSQL checkpoints need the extra: pip install 'boundloop[postgres]'") from None
        return PostgresRunStore(checkpoint_url, retention=Retention.from_env())
    from boundloop.runstore.sqlite import SqliteRunStore

    return SqliteRunStore(folder / RUNS_FILE, retention=Retention.from_env())
