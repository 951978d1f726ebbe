"""Bulk writes: a batch that at least doubles the index builds its big indexes once instead of row by row.

Inserting into an HNSW graph costs ~1 ms a row at 100k chunks; building the graph from scratch in memory costs a
third of that, and a sorted build of the postings index beats 36 index inserts a chunk the same way. So a batch
of at least `min_rows` chunks that is as large as the index already is drops those two indexes, inserts, and
builds them again, all inside the batch's transaction: atomic as before, and searches wait for the batch (the
dropped index holds the table's lock) rather than see a half-built index. The graph is rebuilt for the size it
will have: from `large_graph_rows` chunks on, with a larger `ef_construction` (later row-by-row inserts use it too).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def deferred_indexes(conn: psycopg.Connection, adding: int, tuning: BulkTuning) -> Iterator[None]:
    """Inside a batch transaction: drop the deferrable indexes when `defers`, and build them again on exit."""
    row = conn.execute("SELECT value::bigint FROM boundloop.meta WHERE key = 'chunks'").fetchone()
    existing = int(row[0]) if row else 0
    if not defers(existing, adding, tuning):
        yield
        return
    definitions = conn.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'boundloop' AND indexname = ANY(%s)",
        (list(DEFERRABLE),),
    ).fetchall()
    for name, _ in definitions:
        conn.execute(sql.SQL("DROP INDEX boundloop.{}").format(sql.Identifier(name)))
    yield
    conn.execute("SELECT set_config('maintenance_work_mem', %s, true)",
                 (f"{build_memory_mb(existing + adding, tuning)}MB",))
    for name, definition in definitions:  # the graph is built for its new size; the rest as pg_indexes had it
        conn.execute(hnsw_definition(existing + adding, tuning) if name == HNSW_INDEX else definition)
