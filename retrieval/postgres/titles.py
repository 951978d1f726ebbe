"""Title links on PostgreSQL: lead chunks whose title keys (a generated column, migration 3) match the names.

Names are normalised by the same SQL function as the titles, so both sides agree whatever the database locale.
Each of the three keys has its own index and is compared with `=` (leakproof), so the lookup uses those indexes
under row-level security (migration 5).
"""

from __future__ import annotations

import psycopg

from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import Candidate

_KEYS_SQL = "SELECT boundloop.title_key(name) FROM unnest(%s::text[]) AS n(name)"
# the keys arrive as a value, not a subquery: planned with them, the lookup reads the key indexes alone
_TITLE_SQL = """
SELECT c.chunk_id, (SELECT min(array_position(%(keys)s::text[], k)) FROM unnest(c.title_keys) AS k) AS first
FROM boundloop.chunks c
WHERE c.ordinal = 0 AND c.acl && %(groups)s::text[]
  AND (c.title_keys[1] = ANY(%(keys)s::text[]) OR c.title_keys[2] = ANY(%(keys)s::text[])
       OR c.title_keys[3] = ANY(%(keys)s::text[]))
ORDER BY first, c.doc_id
LIMIT %(limit)s
"""


def title_candidates(conn: psycopg.Connection, names: list[str], access: AccessFilter,
                     limit: int) -> list[Candidate]:
    """Inside the caller's entitled transaction: permitted lead chunks titled by the names, first name first."""
    if not names or limit <= 0 or access.matches_nothing:
        return []
    keys = [key for (key,) in conn.execute(_KEYS_SQL, (names,)).fetchall()]  # in the names' order
    if not any(keys):
        return []
    rows = conn.execute(_TITLE_SQL, {"keys": keys, "groups": sorted(access.groups), "limit": limit}).fetchall()
    return [Candidate(chunk_id, 1.0 / int(first)) for chunk_id, first in rows]
