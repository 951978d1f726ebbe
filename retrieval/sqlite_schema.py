"""Schema of the embedded index: documents, chunks with vectors and ACLs, and an FTS5 table over them."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.migration_runner import Migration, Run, VersionTable, migrate
from boundloop.retrieval.sqlite_failures import sqlite_failure

INDEX_FILE = "index.db"  # the database inside an index folder
# A new index is made at the latest version by `_DDL`; an older one gets the later steps in place, in order.
UPGRADES = [
    Migration(2, "the file or folder a document was ingested from",
              ("ALTER TABLE documents ADD COLUMN origin TEXT NOT NULL DEFAULT ''",)),
    Migration(3, "the workbook sheet a chunk is on", ("ALTER TABLE chunks ADD COLUMN sheet TEXT",)),
    Migration(4, "the chunk's source lines as written ('' before 4)",
              ("ALTER TABLE chunks ADD COLUMN markdown TEXT NOT NULL DEFAULT ''",)),
    Migration(5, "the chunk's document date (NULL before 5, until the next ingest re-writes it)",
              ("ALTER TABLE chunks ADD COLUMN document_date TEXT",)),
    Migration(6, "the chunk's typed units, JSON (NULL before 6: read from its text until the next ingest)",
              ("ALTER TABLE chunks ADD COLUMN units TEXT",)),
]
SCHEMA_VERSION = UPGRADES[-1].version
VERSION = VersionTable(read="SELECT CAST(value AS INTEGER) FROM meta WHERE key='schema_version'",
                       write="UPDATE meta SET value='{version}' WHERE key='schema_version'")

_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    source TEXT NOT NULL,
    acl TEXT NOT NULL,            -- JSON list of groups; [] means visible to nobody
    metadata TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    updated_at REAL NOT NULL,
    origin TEXT NOT NULL DEFAULT ''   -- real path of the ingested file or folder; '' for uploads and older rows
);
CREATE TABLE IF NOT EXISTS groups (name TEXT PRIMARY KEY, gid INTEGER UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    chunk_id TEXT UNIQUE NOT NULL,
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    source TEXT NOT NULL,
    page INTEGER,
    sheet TEXT,                   -- the workbook sheet a chunk is on; NULL otherwise
    markdown TEXT NOT NULL DEFAULT '',  -- the text's source lines as written, for the page; not searched
    document_date TEXT,           -- its document's own date, ISO ('2025-03-14', '2025-03', '2025'); NULL: undated
    units TEXT,                   -- JSON: the headings and lead-in it starts under, and its typed units
    acl TEXT NOT NULL,            -- the document's ACL, JSON
    acl_tokens TEXT NOT NULL,     -- the ACL as group tokens ('g3 g7') for filtering inside FTS queries
    vector BLOB NOT NULL          -- float32, unit length
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    title, text, acl_tokens, content='chunks', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS chunks_ai AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, title, text, acl_tokens) VALUES (new.id, new.title, new.text, new.acl_tokens);
END;
CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, title, text, acl_tokens)
    VALUES ('delete', old.id, old.title, old.text, old.acl_tokens);
END;
"""


DAMAGED_REMEDY = "rebuild it with `boundloop ingest` into a new --index folder, or restore a backup"


def connect(path: str, create: bool, read_only: bool = False) -> sqlite3.Connection:
    """Open the index database (WAL, foreign keys on) and create or check its schema.

    `read_only` opens a file in a folder that cannot be written (nothing changes it while it is open): no lock,
    no WAL; searches work, writes are refused.
    """
    try:
        if read_only:
            conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False,
                                   isolation_level=None)
        else:
            conn = sqlite3.connect(path, timeout=30, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        row = conn.execute("SELECT name FROM sqlite_master WHERE name='meta'").fetchone()
        if row is None:
            if not create:
                raise IndexStoreError(f"{path} is not a boundloop index (run `boundloop ingest` first)")
            conn.executescript("BEGIN;" + _DDL + "COMMIT;")
            conn.execute("INSERT INTO meta VALUES ('schema_version', ?), ('generation', '0')", (str(SCHEMA_VERSION),))
        version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise sqlite_failure(exc, Path(path), "index", DAMAGED_REMEDY) or IndexStoreError(
            f"cannot open index {path}: {exc}") from None
    if version is not None and 0 < int(version[0]) < SCHEMA_VERSION:
        _upgrade(conn)
        version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if version is None or not 0 < int(version[0]) <= SCHEMA_VERSION:
        raise IndexStoreError(f"index {path} has schema version {version and version[0]}, expected {SCHEMA_VERSION}")
    return conn


def has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    """Whether `table` has `column`: a read-only index of an older version lacks the newer ones."""
    return any(row[1] == column for row in conn.execute(f"PRAGMA table_info({table})"))


def transactions(conn: sqlite3.Connection) -> Callable[[], AbstractContextManager[Run]]:
    """A migration step's transaction on `conn` (opened with `isolation_level=None`).

    The write lock first; rolled back on any error, unless SQLite rolled it back itself.
    """

    @contextmanager
    def transaction() -> Iterator[Run]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield lambda statement: conn.execute(statement).fetchall()
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    return transaction


def _upgrade(conn: sqlite3.Connection) -> None:
    """Apply the later versions' steps in place (`UPGRADES`, through `retrieval.migration_runner`).

    A read-only or busy index stays as it is: searches do not read `origin`, and read `sheet`, `document_date`
    and `units` as NULL and `markdown` as '' where they are missing (`has_column`).
    """
    try:
        migrate(transactions(conn), UPGRADES, VERSION)
    except sqlite3.OperationalError:
        pass
