"""The writer's side of BM25: postings (lexeme, chunk, term frequency, length, ACL) and document frequencies.

Every change happens inside the caller's batch transaction, so the statistics a search reads always describe the
chunks it can see: added chunks add their postings and counts, removed chunks take theirs away, relabelled chunks
carry their new ACL into their postings (row-level security filters postings by it).
"""

from __future__ import annotations

import psycopg

# a title occurrence (weight A) counts twice, as the embedded backend weighs its title column 2:1
_TF = "cardinality(u.positions) + cardinality(array_positions(u.weights, 'A'))"

_STAGE_POSTINGS = """
CREATE TEMP TABLE stage_postings (lexeme text, chunk bigint, tf real, length integer, acl text[]) ON COMMIT DROP
"""
# the new chunks' rows and their postings in one statement: the generated tsvector comes back with each row
_INSERT_CHUNKS = f"""
WITH added AS (
    INSERT INTO boundloop.chunks ({{columns}}) SELECT * FROM stage_chunks RETURNING id, tsv, acl
)
INSERT INTO stage_postings
SELECT u.lexeme, a.id, {_TF}, a.length, a.acl
FROM (SELECT id, tsv, acl, boundloop.token_count(tsv) AS length FROM added) a, unnest(a.tsv) u
"""
_GONE = """
CREATE TEMP TABLE gone_postings ON COMMIT DROP AS
SELECT u.lexeme, c.id AS chunk, c.length
FROM (SELECT id, tsv, boundloop.token_count(tsv) AS length FROM boundloop.chunks WHERE doc_id = ANY(%s)) c,
     unnest(c.tsv) u
"""


def _count_terms(conn: psycopg.Connection, table: str, sign: int) -> int:
    """Add (`sign` 1) or take away (-1) the document frequencies and tokens of the postings in `table`."""
    conn.execute(
        f"INSERT INTO boundloop.terms AS t (lexeme, chunks) SELECT lexeme, {sign} * count(*) FROM {table} "
        "GROUP BY lexeme ORDER BY lexeme ON CONFLICT (lexeme) DO UPDATE SET chunks = t.chunks + excluded.chunks"
    )
    if sign < 0:
        conn.execute(f"DELETE FROM boundloop.terms WHERE chunks <= 0 AND lexeme IN (SELECT lexeme FROM {table})")
    row = conn.execute(f"SELECT coalesce(sum(length), 0) FROM (SELECT DISTINCT chunk, length FROM {table}) c"
                       ).fetchone()
    tokens = sign * int(row[0]) if row else 0
    conn.execute("UPDATE boundloop.meta SET value = (value::bigint + %s)::text WHERE key = 'tokens'", (tokens,))
    return tokens


def remove_documents(conn: psycopg.Connection, doc_ids: list[str]) -> None:
    """Take the postings and statistics of these documents' chunks away (before the chunks themselves go)."""
    if not doc_ids:
        return
    conn.execute(_GONE, (doc_ids,))
    conn.execute(
        "DELETE FROM boundloop.postings p USING gone_postings g WHERE p.lexeme = g.lexeme AND p.chunk = g.chunk"
    )
    _count_terms(conn, "gone_postings", -1)
    conn.execute("DROP TABLE gone_postings")


def relabel_documents(conn: psycopg.Connection, doc_ids: list[str]) -> None:
    """Copy the chunks' (new) ACLs into their postings."""
    conn.execute(
        "UPDATE boundloop.postings p SET acl = c.acl "
        "FROM boundloop.chunks c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme) "
        "WHERE c.doc_id = ANY(%s) AND p.lexeme = l.lexeme AND p.chunk = c.id",
        (doc_ids,),
    )


def insert_staged_chunks(conn: psycopg.Connection, columns: str) -> None:
    """Move `stage_chunks` into `chunks` and their postings into `postings`, counting terms and tokens."""
    conn.execute(_STAGE_POSTINGS)
    conn.execute(_INSERT_CHUNKS.format(columns=columns))
    # in index order: neighbouring inserts land on the same index pages
    conn.execute("INSERT INTO boundloop.postings SELECT * FROM stage_postings ORDER BY lexeme, chunk")
    _count_terms(conn, "stage_postings", 1)
