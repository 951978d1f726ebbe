"""Provision the two roles an index needs (`boundloop db init` runs this once, as an administrator).

The writer owns the `boundloop` schema, migrates it and ingests. The reader logs in for searches: no superuser,
no BYPASSRLS, no ownership, no membership in the writer, so row-level security always applies to it.
"""

from __future__ import annotations

import secrets

import psycopg
from psycopg import sql

from boundloop.retrieval.errors import IndexStoreError

_TIGHT = "LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION"


def new_password() -> str:
    return secrets.token_urlsafe(24)


def provision_roles(admin_url: str, database: str, writer: str, reader: str,
                    writer_password: str | None = None, reader_password: str | None = None) -> list[str]:
    """Create (or tighten) the writer and reader roles and let them into `database`; safe to run again.

    Returns the roles that were created (the others existed and were tightened; their passwords stay unless given).
    """
    if writer == reader:
        raise IndexStoreError("the writer and reader roles must differ: the reader must not own the index")
    created = []
    with psycopg.connect(admin_url, autocommit=True) as conn:
        for role, password in ((writer, writer_password), (reader, reader_password)):
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
            verb = "ALTER" if exists else "CREATE"
            conn.execute(sql.SQL("{} ROLE {} " + _TIGHT).format(sql.SQL(verb), sql.Identifier(role)))
            if not exists:
                created.append(role)
            if password is not None:
                conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(role), sql.Literal(password)))
        _revoke_memberships(conn, reader, writer)
        db = sql.Identifier(database)
        conn.execute(sql.SQL("GRANT CONNECT, CREATE ON DATABASE {} TO {}").format(db, sql.Identifier(writer)))
        conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(db, sql.Identifier(reader)))
        conn.execute(sql.SQL("REVOKE CREATE ON DATABASE {} FROM {}").format(db, sql.Identifier(reader)))
    with psycopg.connect(on_database(admin_url, database), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")  # pgvector is not a trusted extension
    return created


def _revoke_memberships(conn: psycopg.Connection, reader: str, writer: str) -> None:
    """The reader may not act as the writer (it would own the tables and read past the policies)."""
    rows = conn.execute(
        "SELECT g.rolname FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid "
        "JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = %s AND pg_has_role(g.oid, %s, 'MEMBER')",
        (reader, writer),
    ).fetchall()
    for (group,) in rows:  # every role the reader belongs to that can act as the writer
        conn.execute(sql.SQL("REVOKE {} FROM {}").format(sql.Identifier(group), sql.Identifier(reader)))


def migrate_as_writer(admin_url: str, database: str, writer: str, reader: str) -> tuple[list[int], str]:
    """Migrate the schema as the writer (so it owns everything) and grant the reader; returns (applied, pgvector)."""
    from boundloop.retrieval.postgres import migrations

    with psycopg.connect(on_database(admin_url, database)) as conn:
        row = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
        if not (row and row[0]):
            conn.execute(sql.SQL("GRANT {} TO CURRENT_USER").format(sql.Identifier(writer)))
            conn.commit()
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(writer)))
        applied = migrations.migrate(conn)
        migrations.grant_reader(conn, reader)
        conn.execute("RESET ROLE")
        version = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    return applied, str(version[0]) if version else "?"


def on_database(url: str, database: str) -> str:
    """`url` pointed at another database."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    parts = conninfo_to_dict(url)
    parts["dbname"] = database
    return make_conninfo(**{k: str(v) for k, v in parts.items() if v is not None})
