"""Keyword candidates: PostgreSQL full-text search over the weighted title and text, ranked by `ts_rank_cd`.

The query is built from `content_terms` only (letters and digits), OR-ed, so no user syntax reaches the engine.
"""

from __future__ import annotations

import psycopg

from policies.entitlements import AccessFilter
from retrieval.backend import Candidate
from retrieval.query_terms import content_terms

# Title matches (weight A) count 1.0, text (B) 0.5: the 2:1 of the embedded backend's BM25. ts_rank, not
# ts_rank_cd: a third faster at 50k chunks, where ranking every matching row is most of the cost.
_KEYWORD_SQL = """
SELECT c.chunk_id, ts_rank('{0, 0, 0.5, 1.0}', c.tsv, q, 1) AS score
FROM boundloop.chunks c, to_tsquery('english', %(query)s) q
WHERE c.tsv @@ q AND c.acl && %(groups)s::text[]
ORDER BY score DESC, c.id
LIMIT %(limit)s
"""


def tsquery_text(query: str) -> str | None:
    """`a | b | c` from the content words of `query`, or None when there is nothing to search for."""
    terms = [t for t in content_terms(query) if t.isalnum()]  # belt and braces: nothing but words reaches to_tsquery
    return " | ".join(terms) if terms else None


def keyword_candidates(conn: psycopg.Connection, query: str, access: AccessFilter, limit: int) -> list[Candidate]:
    """The `limit` best permitted chunks for `query`, inside the caller's entitled transaction."""
    text = tsquery_text(query)
    if text is None or limit <= 0 or access.matches_nothing:
        return []
    rows = conn.execute(_KEYWORD_SQL, {"query": text, "groups": sorted(access.groups), "limit": limit}).fetchall()
    return [Candidate(chunk_id, float(score)) for chunk_id, score in rows]
