"""Bulk writes: a batch that at least doubles the index builds its big indexes once instead of row by row.

Inserting into an HNSW graph costs ~1 ms a row at 100k chunks; building the graph from scratch in memory costs a
third of that, and a sorted build of the postings index beats 36 index inserts a chunk the same way. So once an
ingest's write session has added at least `min_rows` chunks and as many as the index held, it drops those two
indexes, inserts the rest, and builds them again before it commits, all inside its transaction: atomic as before,
and searches wait for the ingest (the dropped index holds the table's lock) rather than see a half-built index. The
graph is rebuilt for the size it will have: from `large_graph_rows` chunks on, with a larger `ef_construction`
(later row-by-row inserts use it too).
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg
from psycopg import sql

HNSW_INDEX = "chunks_embedding_hnsw"
DEFERRABLE = (HNSW_INDEX, "postings_lexeme")


@dataclass(frozen=True)
class BulkTuning:
    """When a batch rebuilds indexes, and with how much memory."""

    min_rows: int = 5_000  # below this, row-by-row maintenance is cheap enough
    memory_mb_max: int = 4_096  # maintenance_work_mem cap for the builds (the HNSW graph is built in memory)
    bytes_per_row: int = 2_600  # measured: 384-d vector + HNSW neighbours, with headroom
    # a graph built for this many chunks or more gets `ef_construction_large`: at 1M chunks and pgvector's widest
    # candidate list (ef_search 1000), ef_construction 64 kept recall@10 0.935-0.97, 128 kept 0.96-0.98, for 2.4x
    # the graph's build time (benchmarks/RESULTS-postgres.md); 64 keeps 0.99 at 100k and 0.97 at 500k (bare table)
    large_graph_rows: int = 500_000
    ef_construction: int = 64  # pgvector's default
    ef_construction_large: int = 128


def hnsw_definition(rows: int, tuning: BulkTuning) -> str:
    """The HNSW index's CREATE INDEX for a graph built over `rows` chunks (m = 16, pgvector's default)."""
    efc = tuning.ef_construction_large if rows >= tuning.large_graph_rows else tuning.ef_construction
    return (f"CREATE INDEX {HNSW_INDEX} ON boundloop.chunks USING hnsw (embedding vector_cosine_ops) "
            f"WITH (m = 16, ef_construction = {int(efc)})")


def defers(existing: int, adding: int, tuning: BulkTuning) -> bool:
    """Whether a batch adding `adding` chunks to `existing` rebuilds the deferrable indexes afterwards."""
    return adding >= tuning.min_rows and adding >= existing


def build_memory_mb(rows: int, tuning: BulkTuning) -> int:
    return max(64, min(tuning.memory_mb_max, rows * tuning.bytes_per_row // 2**20 + 1))


def existing_chunks(conn: psycopg.Connection) -> int:
    """The chunks the index holds (its `meta` count), as a write session sees it when it begins."""
    row = conn.execute("SELECT value::bigint FROM boundloop.meta WHERE key = 'chunks'").fetchone()
    return int(row[0]) if row else 0


def drop_deferrable(conn: psycopg.Connection) -> list[tuple[str, str]]:
    """Inside a write transaction: drop the deferrable indexes; their (name, definition) to build them again."""
    definitions = conn.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'boundloop' AND indexname = ANY(%s)",
        (list(DEFERRABLE),),
    ).fetchall()
    for name, _ in definitions:
        conn.execute(sql.SQL("DROP INDEX boundloop.{}").format(sql.Identifier(name)))
    return [(str(name), str(definition)) for name, definition in definitions]


def rebuild(conn: psycopg.Connection, definitions: list[tuple[str, str]], rows: int, tuning: BulkTuning) -> None:
    """Build the dropped indexes again over the `rows` chunks the index now holds (the graph for its new size)."""
    conn.execute("SELECT set_config('maintenance_work_mem', %s, true)", (f"{build_memory_mb(rows, tuning)}MB",))
    for name, definition in definitions:  # the graph is built for its new size; the rest as pg_indexes had it
        conn.execute(hnsw_definition(rows, tuning) if name == HNSW_INDEX else definition)
