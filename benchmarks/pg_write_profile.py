"""Where a PostgreSQL write batch spends its time: per statement, and with each big index left out.

Grows an index to `--base` chunks (one bulk batch; the corpus of bench_backends.py), then applies the next
`--batch` chunks (committed, then the VACUUM of the postings that follows a large batch, timed), then the `--batch`
after those through the writer's own `apply_batch`, `--repeat` times, each inside a transaction that is rolled
back afterwards (so every repeat starts from the same index), in four variants: as shipped; without the HNSW index;
without the postings index; without both (the indexes are dropped inside the rolled-back transaction). The
embedded backend applies the same batch into an index of the same size, for the ratio.

    nice -n 10 python benchmarks/pg_write_profile.py --base 100000 --batch 10000 --repeat 3
    nice -n 10 python benchmarks/pg_write_profile.py --bulk 100000          # one bulk batch into an empty index

`--bulk N` instead times one batch of N chunks into an empty index (the bulk path: the graph and the postings
index built once), per statement, rolled back, against the embedded backend's same batch.

Statement times come from wrapping the connection's `execute`; "COPY and Python" is the rest of the batch.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from bench_backends import chunk_writes, grow
from bench_data import DATA, distinct_passages
from bench_postgres import postgres_server, postgres_settings
from bench_retrieval import passage_vectors

from boundloop.retrieval.backend import WriteBatch
from boundloop.retrieval.postgres import PostgresIndex, writer
from boundloop.retrieval.postgres.vectors import register_vector
from boundloop.retrieval.sqlite_index import SqliteIndex

VARIANTS: dict[str, tuple[str, ...]] = {"shipped": (), "without HNSW": ("chunks_embedding_hnsw",),
                                        "without postings index": ("postings_lexeme",),
                                        "without both": ("chunks_embedding_hnsw", "postings_lexeme")}


def _label(query: object) -> str:
    words = " ".join(str(query).split())
    return words[:70]


def timed_batch(conn: psycopg.Connection, batch: WriteBatch, encoder: str, drop: tuple[str, ...]) -> dict[str, float]:
    """Seconds per statement of one `apply_batch` (rolled back), with the `drop` indexes gone for its duration."""
    spent: dict[str, float] = defaultdict(float)
    original: Callable[..., Any] = conn.execute

    def execute(query: Any, params: Any = None, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(query, params, **kwargs)
        finally:
            spent[_label(query)] += time.perf_counter() - start

    with conn.transaction(force_rollback=True):
        for name in drop:
            conn.execute(f"DROP INDEX boundloop.{name}")
        conn.execute = execute  # type: ignore[method-assign]
        start = time.perf_counter()
        try:
            writer.apply_batch(conn, batch, encoder)
        finally:
            conn.execute = original  # type: ignore[method-assign]
        total = time.perf_counter() - start
    spent["COPY and Python (the rest)"] = total - sum(spent.values())
    spent["total"] = total
    return dict(spent)


def bulk(size: int, data: Path) -> int:
    """Per statement: one batch of `size` chunks into an empty index, PostgreSQL (rolled back) and embedded."""
    from boundloop.retrieval.embeddings import build_embeddings

    encoder = build_embeddings()
    passages = distinct_passages(data)
    vectors, _ = passage_vectors(encoder, passages, Path("bench-results/cache"))
    (writes,) = chunk_writes(passages, vectors, 0, size, 0.01, size)
    batch = WriteBatch(upserts=writes, deletes=[])
    result: dict[str, Any] = {"bulk": size}
    with tempfile.TemporaryDirectory(prefix="pg-write-profile-") as tmp:
        lite = SqliteIndex(Path(tmp) / "sqlite", create=True)
        start = time.perf_counter()
        lite.apply(batch, encoder.name)
        result["sqlite s"] = round(time.perf_counter() - start, 2)
        lite.close()
        with postgres_server(Path(tmp)) as admin:
            settings = postgres_settings(admin)
            PostgresIndex(settings, create=True).close()
            with psycopg.connect(settings.writer_url) as conn:
                register_vector(conn)
                spent = timed_batch(conn, batch, encoder.name, ())
    result["postgres s"] = {k: round(v, 2) for k, v in sorted(spent.items(), key=lambda kv: -kv[1]) if v >= 0.1}
    result["postgres / embedded, chunks/s"] = round(result["sqlite s"] / spent["total"], 3)
    print(json.dumps(result, indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Per-statement cost of a PostgreSQL write batch.")
    parser.add_argument("--base", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--bulk", type=int, default=0, help="time one batch of N chunks into an empty index")
    args = parser.parse_args(argv)
    if args.bulk:
        return bulk(args.bulk, args.data)

    from boundloop.retrieval.embeddings import build_embeddings

    encoder = build_embeddings()
    passages = distinct_passages(args.data)
    vectors, _ = passage_vectors(encoder, passages, Path("bench-results/cache"))
    first, batch = (WriteBatch(upserts=writes, deletes=[]) for writes in chunk_writes(
        passages, vectors, args.base, args.base + 2 * args.batch, 0.01, args.batch))
    result: dict[str, Any] = {"base": args.base, "batch": args.batch}
    with tempfile.TemporaryDirectory(prefix="pg-write-profile-") as tmp:
        lite = SqliteIndex(Path(tmp) / "sqlite", create=True)
        grow(lite, encoder.name, passages, vectors, 0, args.base + args.batch, batch=args.base)
        lite_s = []
        for _ in range(args.repeat):  # apply, then delete again: the same batch into the same index
            start = time.perf_counter()
            lite.apply(batch, encoder.name)
            lite_s.append(time.perf_counter() - start)
            lite.apply(WriteBatch(upserts=[], deletes=[w.document.doc_id for w in batch.upserts]), encoder.name)
        result["sqlite ms/chunk"] = round(float(np.median(lite_s)) * 1000 / args.batch, 4)
        lite.close()
        with postgres_server(Path(tmp)) as admin:
            settings = postgres_settings(admin)
            index = PostgresIndex(settings, create=True)
            grow(index, encoder.name, passages, vectors, 0, args.base, batch=args.base)
            index.close()
            with psycopg.connect(settings.writer_url) as conn:
                register_vector(conn)
                start = time.perf_counter()  # first a committed batch, and the VACUUM `PostgresIndex.apply` runs
                writer.apply_batch(conn, first, encoder.name)
                committed = time.perf_counter()
                writer.vacuum_postings(conn)
                result["committed batch, ms/chunk"] = round((committed - start) * 1000 / args.batch, 4)
                result["VACUUM postings after it, ms/chunk"] = round((time.perf_counter() - committed) * 1000
                                                                     / args.batch, 4)
                for variant, drop in VARIANTS.items():
                    runs = [timed_batch(conn, batch, encoder.name, drop) for _ in range(args.repeat)]
                    result[variant] = {k: round(float(np.median([r.get(k, 0.0) for r in runs])) * 1000 / args.batch,
                                                4) for k in runs[0]}
                    print(f"[profile] {variant}: {result[variant]['total']} ms/chunk", file=sys.stderr, flush=True)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
