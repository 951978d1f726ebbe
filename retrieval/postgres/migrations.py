"""The index schema as numbered migrations, applied in order by the writer and recorded in `schema_version`.

`retrieval.migration_runner` applies them, each in its own transaction under an advisory lock (the run store's
tables go through the same runner).

Never edit a released migration: append a new one. The embedding column stays dimensionless until the first
ingest binds an encoder (see `writer.bind_encoder`), because the dimension comes from the encoder.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql

from boundloop.retrieval.migration_runner import Migration, Run, VersionTable
from boundloop.retrieval.migration_runner import migrate as apply_migrations

SCHEMA = "boundloop"
MIGRATION_LOCK = 0x626F756E  # pg_advisory_xact_lock key: one migrator at a time

MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "documents, chunks, full-text and ACL indexes", """
CREATE TABLE boundloop.meta (key text PRIMARY KEY, value text NOT NULL);
INSERT INTO boundloop.meta VALUES ('generation', '0'), ('chunks', '0');
CREATE TABLE boundloop.documents (
    doc_id text PRIMARY KEY,
    title text NOT NULL,
    source text NOT NULL,
    acl text[] NOT NULL,                 -- '{}' means visible to nobody
    metadata jsonb NOT NULL,
    content_hash text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE boundloop.chunks (
    id bigserial PRIMARY KEY,
    chunk_id text UNIQUE NOT NULL,
    doc_id text NOT NULL REFERENCES boundloop.documents (doc_id) ON DELETE CASCADE,
    ordinal integer NOT NULL,
    title text NOT NULL,
    text text NOT NULL,
    source text NOT NULL,
    page integer,
    acl text[] NOT NULL,                 -- the document's ACL, copied so every query filters one table
    tsv tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', text), 'B')
    ) STORED,
    embedding vector NOT NULL            -- unit length; typed vector(N) once an encoder is bound
) WITH (toast_tuple_target = 8160);      -- keep text, tsvector and vector in the row: scans read no TOAST
CREATE INDEX chunks_doc ON boundloop.chunks (doc_id);
CREATE INDEX chunks_acl ON boundloop.chunks USING gin (acl);
CREATE INDEX chunks_tsv ON boundloop.chunks USING gin (tsv);
CREATE TABLE boundloop.acl_groups (name text PRIMARY KEY, chunks bigint NOT NULL);  -- planner hint for dense
"""),
    (2, "row-level security keyed on the transaction's groups", """
CREATE FUNCTION boundloop.session_groups() RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(nullif(current_setting('boundloop.groups', true), '')::text[], '{}'::text[])
$$;
ALTER TABLE boundloop.chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE boundloop.chunks FORCE ROW LEVEL SECURITY;
ALTER TABLE boundloop.documents ENABLE ROW LEVEL SECURITY;
ALTER TABLE boundloop.documents FORCE ROW LEVEL SECURITY;
CREATE POLICY entitled_read ON boundloop.chunks FOR SELECT USING (acl && boundloop.session_groups());
CREATE POLICY entitled_read ON boundloop.documents FOR SELECT USING (acl && boundloop.session_groups());
CREATE POLICY writer_all ON boundloop.chunks FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY writer_all ON boundloop.documents FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
"""),
    # raw string: the regular expressions keep their backslashes
    (3, "title keys of lead chunks, for title links", r"""
CREATE FUNCTION boundloop.title_key(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT btrim(regexp_replace(lower(t), '[\W_]+', ' ', 'g'))
$$;
ALTER TABLE boundloop.chunks ADD COLUMN title_keys text[] GENERATED ALWAYS AS (ARRAY[
    boundloop.title_key(title),
    boundloop.title_key(regexp_replace(title, '\s*\([^)]*\)\s*$', '')),
    boundloop.title_key(split_part(regexp_replace(title, '\s*\([^)]*\)\s*$', ''), ',', 1))
]) STORED;
CREATE INDEX chunks_title_keys ON boundloop.chunks USING gin (title_keys) WHERE ordinal = 0;
"""),
    (4, "documents remember the file or folder they were ingested from, for ingest --sync", """
ALTER TABLE boundloop.documents ADD COLUMN origin text NOT NULL DEFAULT '';
"""),
    (5, "BM25: postings and term statistics kept by the writer, read under row-level security", """
CREATE FUNCTION boundloop.token_count(v tsvector) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(sum(cardinality(positions)), 0)::integer FROM unnest(v)
$$;
-- a posting's BM25 term-frequency factor for a fixed average length of 64 tokens: it orders each lexeme's
-- postings best first (the ranking itself uses the real average); a pure function, so a delete finds the entry
CREATE FUNCTION boundloop.impact(tf real, length integer) RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / 64.0)))::real
$$;
CREATE TABLE boundloop.postings (
    lexeme text NOT NULL,
    impact real NOT NULL,                -- boundloop.impact(tf, length)
    chunk bigint NOT NULL,               -- chunks.id
    tf real NOT NULL,                    -- occurrences, a title occurrence counting twice (as in the embedded BM25)
    length integer NOT NULL,             -- the chunk's tokens (BM25's document length)
    acl text[] NOT NULL                  -- the chunk's ACL: row-level security filters postings too
);
INSERT INTO boundloop.postings
SELECT p.lexeme, boundloop.impact(p.tf, p.length), p.chunk, p.tf, p.length, p.acl
FROM (SELECT u.lexeme, c.id AS chunk, cardinality(u.positions) + cardinality(array_positions(u.weights, 'A')) AS tf,
             boundloop.token_count(c.tsv) AS length, c.acl
      FROM boundloop.chunks c, unnest(c.tsv) u) p;
-- each lexeme's postings best first, with everything a ranking reads: index-only scans that can stop early
CREATE UNIQUE INDEX postings_lexeme ON boundloop.postings (lexeme, impact DESC, chunk) INCLUDE (tf, length, acl);
CREATE TABLE boundloop.terms (lexeme text PRIMARY KEY, chunks bigint NOT NULL);  -- document frequencies
INSERT INTO boundloop.terms SELECT lexeme, count(*) FROM boundloop.postings GROUP BY lexeme;
INSERT INTO boundloop.meta SELECT 'tokens', coalesce(sum(length), 0)::text
FROM (SELECT DISTINCT chunk, length FROM boundloop.postings) p;
ALTER TABLE boundloop.postings ENABLE ROW LEVEL SECURITY;
ALTER TABLE boundloop.postings FORCE ROW LEVEL SECURITY;
ALTER TABLE boundloop.terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE boundloop.terms FORCE ROW LEVEL SECURITY;
CREATE POLICY entitled_read ON boundloop.postings FOR SELECT USING (acl && (SELECT boundloop.session_groups()));
CREATE POLICY writer_all ON boundloop.postings FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY writer_all ON boundloop.terms FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
-- Inverse document frequencies for the asked lexemes, but only for lexemes the transaction's groups can see in
-- at least one chunk: the reader cannot read `terms` (a list of every word of every document), and what it
-- learns here is what the embedded backend's BM25 scores show too. Runs as the owner (no BYPASSRLS).
CREATE FUNCTION boundloop.term_weights(lexemes text[])
RETURNS TABLE (lexeme text, idf double precision, avgdl double precision)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    WITH total AS (
        SELECT greatest((SELECT value::float8 FROM boundloop.meta WHERE key = 'chunks'), 1) AS n,
               greatest((SELECT value::float8 FROM boundloop.meta WHERE key = 'tokens'), 1) AS tokens
    )
    SELECT t.lexeme, greatest(ln((total.n - t.chunks + 0.5) / (t.chunks + 0.5)), 1e-6), total.tokens / total.n
    FROM total, boundloop.terms t
    WHERE t.lexeme = ANY(lexemes)
      AND EXISTS (SELECT 1 FROM boundloop.postings p
                  WHERE p.lexeme = t.lexeme AND p.acl && (SELECT boundloop.session_groups()))
$$;
REVOKE ALL ON FUNCTION boundloop.term_weights(text[]) FROM PUBLIC;
DROP INDEX boundloop.chunks_tsv;         -- keyword search reads postings; the tsvector stays for the writer
-- title links: `title_keys && names` could not use its GIN index under RLS (array overlap is not leakproof, so
-- the policy ran first: a sequential scan for a broad user); each key's equality can (texteq is leakproof)
DROP INDEX boundloop.chunks_title_keys;
CREATE INDEX chunks_title_key_1 ON boundloop.chunks ((title_keys[1])) WHERE ordinal = 0;
CREATE INDEX chunks_title_key_2 ON boundloop.chunks ((title_keys[2])) WHERE ordinal = 0;
CREATE INDEX chunks_title_key_3 ON boundloop.chunks ((title_keys[3])) WHERE ordinal = 0;
"""),
    (6, "chunks name the workbook sheet they are on (citations and search results carry it)", """
ALTER TABLE boundloop.chunks ADD COLUMN sheet text;
"""),
    (7, "chunks keep their source lines as written, for the page; older rows show their text", """
ALTER TABLE boundloop.chunks ADD COLUMN markdown text NOT NULL DEFAULT '';
"""),
    (8, "chunks carry their document's date (ISO); older rows are undated until the next ingest re-writes them", """
ALTER TABLE boundloop.chunks ADD COLUMN document_date text;
"""),
    (9, "chunks carry their typed units (JSON); older rows are read from their text until the next ingest", """
ALTER TABLE boundloop.chunks ADD COLUMN units text;
"""),
]

LATEST = MIGRATIONS[-1][0]


def applied_version(conn: psycopg.Connection) -> int | None:
    """The newest applied migration, or None when the database holds no boundloop schema."""
    row = conn.execute("SELECT to_regclass('boundloop.schema_version') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return None
    version = conn.execute("SELECT max(version) FROM boundloop.schema_version").fetchone()
    return int(version[0]) if version and version[0] is not None else 0


VERSIONS = VersionTable(
    create="CREATE TABLE IF NOT EXISTS boundloop.schema_version "
           "(version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    read="SELECT max(version) FROM boundloop.schema_version",
    write="INSERT INTO boundloop.schema_version (version, name) VALUES ({version}, {name})",
)
# first in every migration's transaction: one migrator at a time, and the extension and schema the steps build on
PREPARE = (f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})", "CREATE EXTENSION IF NOT EXISTS vector",
           "CREATE SCHEMA IF NOT EXISTS boundloop")


def migrate(conn: psycopg.Connection) -> list[int]:
    """Apply the pending migrations, each in its own transaction under the advisory lock; returns those applied."""

    @contextmanager
    def transaction() -> Iterator[Run]:
        with conn.transaction():
            yield lambda statement: _rows(conn.execute(statement))  # trusted constant DDL, several statements

    steps = [Migration(version, name, (ddl,)) for version, name, ddl in MIGRATIONS]
    return apply_migrations(transaction, steps, VERSIONS, PREPARE)


def _rows(cursor: psycopg.Cursor[Any]) -> list[Any]:
    return cursor.fetchall() if cursor.description else []


def grant_reader(conn: psycopg.Connection, role: str) -> bool:
    """Let the reader role select what searches need (RLS still applies); False when the role does not exist."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))  # concurrent GRANTs on one table fail
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        if not exists:
            return False
        who = sql.Identifier(role)
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA boundloop TO {}").format(who))
        conn.execute(
            sql.SQL(
                "GRANT SELECT ON boundloop.chunks, boundloop.postings, boundloop.meta, boundloop.acl_groups, "
                "boundloop.schema_version TO {}"
            ).format(who)
        )
        conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION boundloop.term_weights(text[]) TO {}").format(who))
    return True
