"""Title links on PostgreSQL: lead chunks whose title keys (a generated column, migration 3) match the names.

Names are normalised by the same SQL function as the titles, so both sides agree whatever the database locale.
"""

from __future__ import annotations

import psycopg

from policies.entitlements import AccessFilter
from retrieval.backend import Candidate

_TITLE_SQL = """
WITH wanted AS (
    SELECT boundloop.title_key(name) AS key, position
    FROM unnest(%(names)s::text[]) WITH ORDINALITY AS n(name, position)
)
SELECT c.chunk_id, (SELECT min(w.position) FROM wanted w WHERE w.key = ANY(c.title_keys)) AS first
FROM boundloop.chunks c
WHERE c.ordinal = 0 AND c.acl && %(groups)s::text[]
  AND c.title_keys && (SELECT array_agg(key) FROM wanted WHERE key <> '')
ORDER BY first, c.doc_id
LIMIT %(limit)s
"""


def title_candidates(conn: psycopg.Connection, names: list[str], access: AccessFilter,
                     limit: int) -> list[Candidate]:
    """Inside the caller's entitled transaction: permitted lead chunks titled by the names, first name first."""
    if not names or limit <= 0 or access.matches_nothing:
        return []
    rows = conn.execute(_TITLE_SQL, {"names": names, "groups": sorted(access.groups), "limit": limit}).fetchall()
    return [Candidate(chunk_id, 1.0 / int(first)) for chunk_id, first in rows]
