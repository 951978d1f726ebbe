"""HNSW recall@10 and latency against `hnsw.ef_search`, for the ACL-filtered dense query, at one index size.

`bench_backends.py` measures the shipped plan once per size; this sweeps the knob it chooses. It writes the same
corpus (the shared data's passages reused under new ids with `--jitter` on later copies, ACLs drawn per id as in
bench_retrieval.py) into a bare table `(id, acl, embedding)` of its own server, builds the HNSW index with `--m`
and `--ef-construction`, and for each `--ef` runs the dense query (`WHERE acl && groups ORDER BY distance LIMIT
50`, as search asks) for the broad and the selective user: recall@10 within the 50 by distance, as bench_backends
counts it (a hit as close as the exact 10th counts: copies tie), against an exact numpy scan; and the p50 latency.

    nice -n 10 python benchmarks/hnsw_recall.py --size 1000000 --ef 274,400,600,1000 [--keep /path/to/pgdata]

`--keep DIR` keeps the server's data folder, so a second run with the same size and build reuses the table.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from bench_backends import SELECTIVE, copy_vector
from bench_data import DATA, distinct_passages, hotpot_rows
from bench_retrieval import USER_GROUPS, _draw_acl, passage_vectors

from boundloop.retrieval.postgres.vectors import register_vector

CANDIDATES = 50


def corpus(vectors: np.ndarray, size: int, jitter: float) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    matrix = np.concatenate([copy_vector(vectors, n, jitter) for n in range(size)]).astype(np.float32)
    return matrix, [_draw_acl(random.Random(n)) for n in range(size)]


def build(conn: psycopg.Connection, matrix: np.ndarray, acls: list[tuple[str, ...]], m: int, efc: int,
          memory_mb: int) -> float:
    """The table (if missing or of another size) and its HNSW index (if missing or built otherwise); seconds."""
    name = f"items_hnsw_m{m}_efc{efc}_mem{memory_mb}"
    exists = conn.execute("SELECT to_regclass('items') IS NOT NULL").fetchone() == (True,)
    if not exists or conn.execute("SELECT count(*) FROM items").fetchone() != (len(matrix),):
        conn.execute("DROP TABLE IF EXISTS items")
        conn.execute(f"CREATE TABLE items (id bigint, acl text[], embedding vector({matrix.shape[1]}))")
        conn.execute("ALTER TABLE items ALTER COLUMN embedding SET STORAGE MAIN")
        with conn.cursor().copy("COPY items FROM STDIN (FORMAT BINARY)") as cp:
            cp.set_types(["int8", "text[]", "vector"])
            for i, (vector, acl) in enumerate(zip(matrix, acls, strict=True)):
                cp.write_row((i, list(acl), vector))
        conn.commit()
    if conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone() == (True,):
        return 0.0
    for (old,) in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'items'").fetchall():
        conn.execute(f"DROP INDEX {old}")  # one graph at a time: the planner must use the one just built
    conn.execute(f"SET maintenance_work_mem = '{memory_mb}MB'")
    start = time.perf_counter()
    conn.execute(f"CREATE INDEX {name} ON items USING hnsw (embedding vector_cosine_ops) "
                 f"WITH (m = {m}, ef_construction = {efc})")
    conn.commit()
    return time.perf_counter() - start


def sweep(conn: psycopg.Connection, matrix: np.ndarray, acls: list[tuple[str, ...]], queries: np.ndarray,
          efs: list[int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    conn.execute("SET enable_seqscan = off")
    for user, groups in (("broad", USER_GROUPS), ("selective", SELECTIVE)):
        permitted = np.flatnonzero([bool(groups.intersection(a)) for a in acls])
        scores = queries @ matrix[permitted].T
        bars = np.sort(scores, axis=1)[:, -10] - 1e-6  # the exact 10th's cosine
        for ef in efs:
            conn.execute(f"SET hnsw.ef_search = {ef}")
            recalls, times = [], []
            for q, bar in zip(queries, bars, strict=True):
                start = time.perf_counter()
                rows = conn.execute("SELECT 1 - (embedding <=> %s) FROM items WHERE acl && %s::text[] "
                                    "ORDER BY embedding <=> %s LIMIT %s", (q, sorted(groups), q, CANDIDATES)).fetchall()
                times.append(time.perf_counter() - start)
                recalls.append(sum(r[0] >= bar for r in rows[:10]) / 10)
            out[f"{user} ef={ef}"] = {"recall@10": round(float(np.mean(recalls)), 4),
                                      "p50_ms": round(float(np.median(times)) * 1000, 2),
                                      "queries with recall < 1": int(sum(r < 1 for r in recalls))}
            print(f"[hnsw] {user} ef={ef}: {out[f'{user} ef={ef}']}", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="HNSW recall@10 and latency against hnsw.ef_search.")
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--ef", default="40,100,274,500,1000", help="hnsw.ef_search values to try")
    parser.add_argument("--m", type=int, default=16)
    parser.add_argument("--ef-construction", type=int, default=64)
    parser.add_argument("--memory-mb", type=int, default=4096, help="maintenance_work_mem for the build")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--jitter", type=float, default=0.01)
    parser.add_argument("--keep", type=Path, help="a data folder to keep the server in (reused by the next run)")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)
    import pgserver

    from boundloop.retrieval.embeddings import build_embeddings

    encoder = build_embeddings()
    vectors, _ = passage_vectors(encoder, distinct_passages(args.data), Path("bench-results/cache"))
    queries = encoder.encode([r["question"] for r in hotpot_rows(args.data, args.questions)]).astype(np.float32)
    matrix, acls = corpus(vectors, args.size, args.jitter)
    folder = args.keep or Path(f"bench-results/hnsw-pg-{int(time.time())}")
    server = pgserver.get_server(folder, cleanup_mode=None if args.keep else "delete")
    try:
        with psycopg.connect(server.get_uri()) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            register_vector(conn)
            build_s = build(conn, matrix, acls, args.m, args.ef_construction, args.memory_mb)
            result = {"size": args.size, "m": args.m, "ef_construction": args.ef_construction,
                      "memory_mb": args.memory_mb,
                      "build_s": round(build_s, 1), **sweep(conn, matrix, acls, queries,
                                                            [int(e) for e in args.ef.split(",")])}
    finally:
        if not args.keep:
            server.cleanup()
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
