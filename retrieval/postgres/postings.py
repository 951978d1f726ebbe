"""The writer's side of BM25: postings (lexeme, chunk, term frequency, length, ACL) and document frequencies.

Every change happens inside the caller's batch transaction, so the statistics a search reads always describe the
chunks it can see: added chunks add their postings and counts, removed chunks take theirs away, relabelled chunks
carry their new ACL into their postings (row-level security filters postings by it).
"""

from __future__ import annotations

import psycopg

# a title occurrence (weight A) counts twice, as the embedded backend weighs its title column 2:1
_TF = "cardinality(u.positions) + cardinality(array_positions(u.weights, 'A'))"

# the postings of the chunks with ids above %(after)s (the rows a batch just inserted), from their tsvector;
# OFFSET 0 keeps each chunk's length computed once per chunk: flattened into the outer query, token_count (a
# subquery over the whole tsvector) ran once per posting, twice, and took 80% of a 10k-chunk batch
_NEW_POSTINGS = f"""
SELECT p.lexeme, boundloop.impact(p.tf, p.length) AS impact, p.chunk, p.tf, p.length, p.acl
FROM (SELECT u.lexeme, c.id AS chunk, {_TF} AS tf, c.length, c.acl
      FROM (SELECT id, tsv, acl, boundloop.token_count(tsv) AS length FROM boundloop.chunks WHERE id > %(after)s
            OFFSET 0) c,
           unnest(c.tsv) u) p
"""
_KEYS = f"""
SELECT p.lexeme, boundloop.impact(p.tf, p.length) AS impact, p.chunk, p.length
FROM (SELECT u.lexeme, c.id AS chunk, {_TF} AS tf, c.length
      FROM (SELECT id, tsv, boundloop.token_count(tsv) AS length FROM boundloop.chunks WHERE doc_id = ANY(%s)
            OFFSET 0) c,
           unnest(c.tsv) u) p
"""
_MATCH = "p.lexeme = g.lexeme AND p.impact = g.impact AND p.chunk = g.chunk"  # the index key, entry by entry


def _uncount(conn: psycopg.Connection) -> None:
    """Take the document frequencies and tokens of the postings in `gone_postings` away."""
    conn.execute(
        "UPDATE boundloop.terms t SET chunks = t.chunks - g.n "
        "FROM (SELECT lexeme, count(*) AS n FROM gone_postings GROUP BY lexeme) g WHERE t.lexeme = g.lexeme"
    )
    conn.execute("DELETE FROM boundloop.terms WHERE chunks <= 0 AND lexeme IN (SELECT lexeme FROM gone_postings)")
    conn.execute(
        "UPDATE boundloop.meta SET value = (value::bigint - (SELECT coalesce(sum(length), 0) "
        "FROM (SELECT DISTINCT chunk, length FROM gone_postings) c))::text WHERE key = 'tokens'"
    )


def remove_documents(conn: psycopg.Connection, doc_ids: list[str]) -> None:
    """Take the postings and statistics of these documents' chunks away (before the chunks themselves go)."""
    if not doc_ids:
        return
    conn.execute("CREATE TEMP TABLE gone_postings ON COMMIT DROP AS " + _KEYS, (doc_ids,))
    conn.execute(f"DELETE FROM boundloop.postings p USING gone_postings g WHERE {_MATCH}")
    _uncount(conn)
    conn.execute("DROP TABLE gone_postings")


def relabel_documents(conn: psycopg.Connection, doc_ids: list[str]) -> None:
    """Copy the chunks' (new) ACLs into their postings."""
    conn.execute(
        f"UPDATE boundloop.postings p SET acl = c.acl FROM ({_KEYS}) g JOIN boundloop.chunks c ON c.id = g.chunk "
        f"WHERE {_MATCH}",
        (doc_ids,),
    )


def insert_staged_chunks(conn: psycopg.Connection, columns: str) -> None:
    """Move `stage_chunks` into `chunks` and their postings into `postings`, counting terms and tokens.

    The batch holds the write lock, so the new rows are exactly those above the highest id before the insert.
    """
    row = conn.execute("SELECT coalesce(max(id), 0) FROM boundloop.chunks").fetchone()
    after = {"after": int(row[0]) if row else 0}
    conn.execute(f"INSERT INTO boundloop.chunks ({columns}) SELECT * FROM stage_chunks")
    # in index order, so that neighbouring inserts land on the same index pages; no sort when a bulk batch has
    # dropped the index (its build sorts anyway)
    indexed = conn.execute("SELECT to_regclass('boundloop.postings_lexeme') IS NOT NULL").fetchone() == (True,)
    order = " ORDER BY lexeme, impact DESC, chunk" if indexed else ""
    conn.execute(f"INSERT INTO boundloop.postings {_NEW_POSTINGS}{order}", after)
    conn.execute(
        f"INSERT INTO boundloop.terms AS t (lexeme, chunks) SELECT lexeme, count(*) FROM ({_NEW_POSTINGS}) p "
        "GROUP BY lexeme ORDER BY lexeme ON CONFLICT (lexeme) DO UPDATE SET chunks = t.chunks + excluded.chunks",
        after,
    )
    conn.execute(
        "UPDATE boundloop.meta SET value = (value::bigint + (SELECT coalesce(sum(boundloop.token_count(tsv)), 0) "
        "FROM boundloop.chunks WHERE id > %(after)s))::text WHERE key = 'tokens'", after,
    )
