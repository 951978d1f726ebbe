"""What keeping an HNSW graph costs per chunk on this machine: built once (serial and with parallel workers) and
maintained row by row (with PostgreSQL's default `shared_buffers` and with one that holds the whole graph).

The write target of issue 18 (PostgreSQL at 0.3x the embedded backend's chunks/s) leaves ~0.25-0.35 ms a chunk
for the whole write; this measures the graph alone, on a bare table `(id, embedding)` of its own `pgserver`, with
the corpus of bench_backends.py (the shared data's passages reused under new ids, `--jitter` on later copies).
Each insertion batch is rolled back, so every repeat inserts into the same graph.

    nice -n 10 python benchmarks/pg_graph_cost.py --size 100000 --batch 5000 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from bench_backends import copy_vector
from bench_data import DATA, distinct_passages
from bench_retrieval import passage_vectors

from boundloop.retrieval.postgres.vectors import register_vector

GRAPH = "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"  # as bulk.py below 500k


def _load(conn: psycopg.Connection, matrix: np.ndarray) -> None:
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    register_vector(conn)
    conn.execute(f"CREATE TABLE items (id bigint, embedding vector({matrix.shape[1]}))")
    conn.execute("ALTER TABLE items ALTER COLUMN embedding SET STORAGE MAIN")
    with conn.cursor().copy("COPY items FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(["int8", "vector"])
        for i, vector in enumerate(matrix):
            cp.write_row((i, vector))
    conn.commit()


def _build(conn: psycopg.Connection, workers: int, memory_mb: int) -> float:
    conn.execute("DROP INDEX IF EXISTS items_graph")
    conn.execute(f"SET maintenance_work_mem = '{memory_mb}MB'")
    conn.execute(f"SET max_parallel_maintenance_workers = {workers}")
    start = time.perf_counter()
    conn.execute(f"CREATE INDEX items_graph ON items {GRAPH}")
    elapsed = time.perf_counter() - start
    conn.commit()
    return elapsed


def _insert(conn: psycopg.Connection, batch: np.ndarray, repeat: int) -> list[float]:
    """Seconds per repeat to insert `batch` into the graph row by row (each repeat rolled back)."""
    times = []
    for _ in range(repeat):
        with conn.transaction(force_rollback=True), conn.cursor().copy(
                "COPY items FROM STDIN (FORMAT BINARY)") as cp:
            cp.set_types(["int8", "vector"])
            start = time.perf_counter()
            for i, vector in enumerate(batch):
                cp.write_row((-1 - i, vector))
        times.append(time.perf_counter() - start)
    return times


def _ms(seconds: float, rows: int) -> float:
    return round(seconds * 1000 / rows, 4)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Per-chunk cost of building and maintaining an HNSW graph.")
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jitter", type=float, default=0.01)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)

    import pgserver

    from boundloop.retrieval.embeddings import build_embeddings

    passages = distinct_passages(args.data)
    vectors, _ = passage_vectors(build_embeddings(), passages, Path("bench-results/cache"))
    matrix = np.concatenate([copy_vector(vectors, n, args.jitter) for n in range(args.size)]).astype(np.float32)
    batch = np.concatenate([copy_vector(vectors, n, args.jitter)
                            for n in range(args.size, args.size + args.batch)]).astype(np.float32)
    memory_mb = max(256, args.size * 3 // 1000)
    result: dict[str, Any] = {"size": args.size, "batch": args.batch, "graph": GRAPH}
    with tempfile.TemporaryDirectory(prefix="pg-graph-cost-") as tmp:
        folder = Path(tmp) / "pg"
        for shared_buffers in ("128MB", "2GB"):
            server = pgserver.get_server(folder, cleanup_mode="stop")
            try:
                with psycopg.connect(server.get_uri()) as conn:
                    conn.autocommit = True
                    conn.execute(f"ALTER SYSTEM SET shared_buffers = '{shared_buffers}'")
            finally:
                server.cleanup()  # the setting needs a restart
            server = pgserver.get_server(folder, cleanup_mode="stop")
            try:
                with psycopg.connect(server.get_uri()) as conn:
                    actual = conn.execute("SHOW shared_buffers").fetchone()
                    if conn.execute("SELECT to_regclass('items') IS NULL").fetchone() == (True,):
                        _load(conn, matrix)
                        for workers in (0, 2):
                            seconds = _build(conn, workers, memory_mb)
                            result[f"build, {workers} parallel workers, ms/chunk"] = _ms(seconds, args.size)
                            print(f"[graph] build with {workers} workers: {seconds:.1f} s", file=sys.stderr, flush=True)
                    register_vector(conn)
                    conn.execute("SELECT count(*) FROM items").fetchone()  # the table in the cache
                    times = _insert(conn, batch, args.repeat)
                    key = f"row-by-row insert, shared_buffers {actual[0] if actual else shared_buffers}, ms/chunk"
                    result[key] = _ms(float(np.median(times)), args.batch)
                    print(f"[graph] {key}: {result[key]}", file=sys.stderr, flush=True)
            finally:
                server.cleanup()
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
