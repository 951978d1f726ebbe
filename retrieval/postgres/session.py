"""Reader transactions that carry the asking user's groups, and the check that the reader role is confined by RLS.

The groups go into the transaction-local setting `boundloop.groups` that the row-level security policies read,
so even a query that forgot its own ACL clause returns only rows the user may see; outside such a transaction
the setting is empty and the policies return nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg_pool import ConnectionPool

from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.postgres.errors import IndexAccessError, database_errors


def set_local(conn: psycopg.Connection, settings: dict[str, str]) -> None:
    """Transaction-local settings (`SET LOCAL`), in one round trip; names and values are bound parameters."""
    if settings:
        calls = ", ".join(["set_config(%s, %s, true)"] * len(settings))
        params = [part for item in settings.items() for part in item]
        conn.execute(f"SELECT {calls}", params)  # only placeholders are interpolated


@contextmanager
def entitled_transaction(pool: ConnectionPool, access: AccessFilter, where: str) -> Iterator[psycopg.Connection]:
    """A transaction whose row-level security groups are exactly `access.groups`."""
    with database_errors(where), pool.connection() as conn, conn.transaction():
        conn.execute("SELECT set_config('boundloop.groups', %s::text[]::text, true)", (sorted(access.groups),))
        yield conn


CONFINEMENT = """
SELECT r.rolname, r.rolsuper, r.rolbypassrls, pg_has_role(current_user, c.relowner, 'MEMBER'),
       c.relrowsecurity AND c.relforcerowsecurity
FROM pg_roles r, pg_class c
WHERE r.rolname = current_user AND c.oid = 'boundloop.chunks'::regclass
"""


def check_reader_confined(conn: psycopg.Connection, where: str) -> None:
    """Refuse a search role that could read past the policies: superuser, BYPASSRLS, owner, or RLS switched off."""
    row = conn.execute(CONFINEMENT).fetchone()
    if row is None:
        raise IndexAccessError(f"cannot inspect the search role at {where}")
    role, superuser, bypass, owner, forced = row
    reasons = [text for flag, text in ((superuser, "is a superuser"), (bypass, "has BYPASSRLS"),
                                       (owner, "owns the index tables")) if flag]
    if not forced:
        reasons.append("finds row-level security disabled on the index tables")
    if reasons:
        raise IndexAccessError(
            f"refusing to search as role {role!r} at {where}: it {' and '.join(reasons)}; "
            "connect searches as a reader role (BOUNDLOOP_PG_READER_URL, see docs/postgres.md)"
        )
