"""Per-test-module PostgreSQL databases with the writer and reader roles provisioned, and their settings."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
from psycopg.conninfo import conninfo_to_dict

from boundloop.retrieval.postgres.roles import provision_roles
from boundloop.retrieval.postgres.settings import PgSettings, is_postgres_url
from tests.service import postgres

WRITER, READER = "boundloop_writer", "boundloop_reader"


def as_role(url: str, role: str) -> str:
    """`url` (postgresql://user:pw@host/db?query) for another role, without a password; still a URL."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{quote(role)}@{host}"))


def provisioned_database(server) -> Iterator[PgSettings]:  # noqa: ANN001 - pgserver's PostgresServer
    """A fresh database with both roles; yields writer and reader settings, drops it afterwards."""
    database = postgres.fresh_database(server)
    url = next(database)
    try:
        provision_roles(server.get_uri(), str(conninfo_to_dict(url)["dbname"]), WRITER, READER)
        settings = PgSettings(writer_url=as_role(url, WRITER), reader_url=as_role(url, READER))
        assert is_postgres_url(settings.writer_url)  # what selects the backend: it must stay a URL
        yield settings
    finally:
        database.close()  # drops it


def drop_index(settings: PgSettings) -> None:
    """Remove the whole index schema, so the next open starts from migration 1."""
    with psycopg.connect(settings.writer_url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS boundloop CASCADE")
