"""Keyword candidates: BM25 over the postings the writer keeps, read under row-level security.

The ranking is the embedded backend's (FTS5's `bm25`): k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5))
(at least 1e-6), a title occurrence counting twice. Term frequencies and chunk lengths sit in the `postings` index
entries, so a query reads the postings of its own lexemes (an index-only scan) and never the `chunks` table but for
the winners' ids; the policies and the query's own ACL clause filter postings like chunks. No user syntax reaches
the engine: the lexemes come from `content_terms()` (letters and digits only) through `to_tsvector`.

Each lexeme's postings are ordered by their term-frequency factor (`impact`), and a first ranking reads at most
`POSTINGS_PER_TERM` permitted ones per lexeme, which bounds the cost at any corpus size. Below that many chunks per
word it is exact BM25; above it, a very common word stops adding to the chunks where it weighs least, so the best
`max(2 x limit, RESCORED)` chunks of that ranking are scored again exactly from their own tsvector before the best
`limit` are returned (measured against exact BM25 by `benchmarks/bench_backends.py`).
"""

from __future__ import annotations

import psycopg

from boundloop.domain.words import content_terms
from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import Candidate

K1, B = 1.2, 0.75
POSTINGS_PER_TERM = 4_000  # the most a ranking reads of one lexeme's postings (its best first; see the docstring)
RESCORED = 100  # at least this many of the capped ranking's best are scored again, exactly, from their tsvector

_TF = "cardinality(u.positions) + cardinality(array_positions(u.weights, 'A'))"  # a title occurrence counts twice
# `term_weights` gives each lexeme's idf (only for lexemes the transaction's groups can see) and the average
# chunk length; each lexeme contributes its best permitted postings (by `impact`, an index-ordered scan that stops
# early) to a first ranking; its best `pool` chunks are then scored exactly from their own tsvector (what a capped
# common word left out comes back) and the best `limit` of those returned
_KEYWORD_SQL = f"""
WITH weights AS (
    SELECT w.lexeme, w.idf, {K1} * (1 - {B}) AS flat, {K1} * {B} / w.avgdl AS per_token
    FROM boundloop.term_weights(tsvector_to_array(to_tsvector('english', %(query)s))) w
), ranked AS (
    SELECT p.chunk, max(p.length) AS length,
           sum(w.idf * p.tf * {K1 + 1} / (p.tf + w.flat + w.per_token * p.length)) AS score
    FROM weights w CROSS JOIN LATERAL (
        SELECT p.chunk, p.tf, p.length FROM boundloop.postings p
        WHERE p.lexeme = w.lexeme AND p.acl && %(groups)s::text[]
        ORDER BY p.impact DESC, p.chunk
        LIMIT %(per_term)s
    ) p
    GROUP BY p.chunk
    ORDER BY score DESC, p.chunk
    LIMIT %(pool)s
), exact AS (
    SELECT c.chunk_id, c.id, (
        SELECT sum(w.idf * f.tf * {K1 + 1} / (f.tf + w.flat + w.per_token * r.length))
        FROM unnest(c.tsv) u JOIN weights w ON w.lexeme = u.lexeme CROSS JOIN LATERAL (SELECT {_TF} AS tf) f
    ) AS score
    FROM ranked r JOIN boundloop.chunks c ON c.id = r.chunk AND c.acl && %(groups)s::text[]
)
SELECT chunk_id, score FROM exact ORDER BY score DESC, id LIMIT %(limit)s
"""


def query_text(query: str) -> str | None:
    """The content words of `query`, space-separated, or None when there is nothing to search for."""
    terms = [t for t in content_terms(query) if t.isalnum()]  # belt and braces: nothing but words reaches SQL
    return " ".join(terms) if terms else None


def keyword_candidates(conn: psycopg.Connection, query: str, access: AccessFilter, limit: int,
                       per_term: int | None = POSTINGS_PER_TERM) -> list[Candidate]:
    """The `limit` best permitted chunks for `query`, inside the caller's entitled transaction.

    `per_term` None reads every posting of the query's lexemes (exact BM25 at any size).
    """
    text = query_text(query)
    if text is None or limit <= 0 or access.matches_nothing:
        return []
    pool = limit if per_term is None else max(limit * 2, RESCORED)  # reading every posting is exact already
    params = {"query": text, "groups": sorted(access.groups), "limit": limit, "per_term": per_term, "pool": pool}
    rows = conn.execute(_KEYWORD_SQL, params).fetchall()
    return [Candidate(chunk_id, float(score)) for chunk_id, score in rows]
