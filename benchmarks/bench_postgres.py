"""The PostgreSQL server and database the backend benchmarks write into: a given server, or a pgserver started in a
temporary folder; a fresh database with boundloop's writer and reader roles."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from boundloop.retrieval.postgres.roles import provision_roles
from boundloop.retrieval.postgres.settings import PgSettings


@contextmanager
def postgres_server(folder: Path, given: str | None = None) -> Iterator[str]:
    """A superuser URL: `given` when set, else a pgserver started under `folder` and stopped afterwards."""
    if given:
        yield given
        return
    import pgserver

    server = pgserver.get_server(folder / "pg", cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def _with_user(url: str, user: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{user}@{parts.netloc.rpartition('@')[2]}", path=f"/{database}"))


def postgres_settings(admin: str) -> PgSettings:
    """A fresh database on the server, with boundloop's writer and reader roles provisioned."""
    import psycopg

    database = f"bench_{int(time.time())}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    provision_roles(admin, database, "boundloop_writer", "boundloop_reader")
    return PgSettings(writer_url=_with_user(admin, "boundloop_writer", database),
                      reader_url=_with_user(admin, "boundloop_reader", database))
