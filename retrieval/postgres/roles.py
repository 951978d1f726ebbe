"""Provision the two roles an index needs (run once by an administrator; the SQL is also in docs/postgres.md).

The writer owns the `boundloop` schema, migrates it and ingests. The reader logs in for searches: no superuser,
no BYPASSRLS, no ownership, so row-level security always applies to it.
"""

from __future__ import annotations

import psycopg
from psycopg import sql


def provision_roles(admin_url: str, database: str, writer: str, reader: str,
                    writer_password: str | None = None, reader_password: str | None = None) -> None:
    """Create (or tighten) the writer and reader roles and let them into `database`; safe to run again."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        for role, password in ((writer, writer_password), (reader, reader_password)):
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
            verb = "ALTER" if exists else "CREATE"
            conn.execute(
                sql.SQL("{} ROLE {} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE").format(
                    sql.SQL(verb), sql.Identifier(role)
                )
            )
            if password is not None:
                conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(role), sql.Literal(password)))
        db = sql.Identifier(database)
        conn.execute(sql.SQL("GRANT CONNECT, CREATE ON DATABASE {} TO {}").format(db, sql.Identifier(writer)))
        conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(db, sql.Identifier(reader)))
    with psycopg.connect(_on_database(admin_url, database), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")  # pgvector is not a trusted extension


def _on_database(url: str, database: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    parts = conninfo_to_dict(url)
    parts["dbname"] = database
    return make_conninfo(**{k: str(v) for k, v in parts.items() if v is not None})
