"""`boundloop db init`: one administrator step that leaves a database ready for ingest and search.

Creates the database if asked for one that does not exist, creates or tightens the writer and reader roles,
creates the pgvector extension, applies the migrations as the writer (so it owns the schema), grants the reader
what searches need, and returns the two URLs: the writer's for `BOUNDLOOP_INDEX`, the reader's for
`BOUNDLOOP_PG_READER_URL`. Safe to run again: nothing is re-created, passwords change only when asked.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import psycopg
from psycopg import sql

from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.postgres import migrations, roles
from boundloop.retrieval.postgres.errors import database_errors
from boundloop.retrieval.postgres.settings import login_url, redact


@dataclass
class InitResult:
    """What `init_database` did, and the URLs to set."""

    database: str
    writer_url: str
    reader_url: str
    pgvector: str
    schema_version: int
    applied: list[int] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    new_passwords: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def _ensure_database(admin_url: str, database: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))


def init_database(admin_url: str, database: str | None, writer: str, reader: str,
                  new_passwords: bool = False) -> InitResult:
    """Provision roles, extension and schema in `database` (default: the admin URL's); see the module summary."""
    where = redact(admin_url)
    with database_errors(where):
        with psycopg.connect(admin_url, autocommit=True) as conn:
            name = database or str(conn.info.dbname)
            existing = {r for (r,) in conn.execute(
                "SELECT rolname FROM pg_roles WHERE rolname = ANY(%s)", ([writer, reader],)).fetchall()}
        if database:
            _ensure_database(admin_url, database)
        passwords = {role: roles.new_password() for role in (writer, reader)
                     if new_passwords or role not in existing}
        created = roles.provision_roles(admin_url, name, writer, reader, passwords.get(writer), passwords.get(reader))
        applied, pgvector = roles.migrate_as_writer(admin_url, name, writer, reader)
    if migrations.LATEST not in applied and not _has_schema(admin_url, name):
        raise IndexStoreError(f"the boundloop schema is missing in {name} after migrating")
    return InitResult(
        database=name, writer_url=login_url(admin_url, writer, passwords.get(writer), name),
        reader_url=login_url(admin_url, reader, passwords.get(reader), name), pgvector=pgvector,
        schema_version=migrations.LATEST, applied=applied, created=created, new_passwords=sorted(passwords),
    )


def _has_schema(admin_url: str, database: str) -> bool:
    with psycopg.connect(roles.on_database(admin_url, database)) as conn:
        return migrations.applied_version(conn) == migrations.LATEST
