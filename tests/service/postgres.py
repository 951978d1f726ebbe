"""A real PostgreSQL 16 server for the tests, started by `pgserver` on a Unix socket in a temporary folder.

pgserver needs no root; run as root (as CI is), it creates a `pgserver` system user and runs PostgreSQL as that user.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg


def server() -> Iterator[Any]:
    """A running server (pgserver's `PostgresServer`), stopped and deleted afterwards.

    Its data folder is made directly under the system temp folder: as root, pgserver opens the folder's parents
    to its `pgserver` user, and pytest's own temp root is private (0700) and may be made private again.
    """
    import pgserver

    folder = Path(tempfile.mkdtemp(prefix="boundloop-pg-"))
    instance = pgserver.get_server(folder, cleanup_mode="stop")
    try:
        yield instance
    finally:
        instance.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(server: Any) -> Iterator[str]:
    """A new empty database on `server`, dropped afterwards; yields its URL."""
    name = f"boundloop_{uuid.uuid4().hex[:12]}"
    admin = server.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.get_uri(name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
