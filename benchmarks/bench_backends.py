"""Both index backends side by side: write throughput, ACL-filtered search latency as the index grows, HNSW
recall@10 against exact search, and memory.

Run from the repository root: `python benchmarks/bench_backends.py` (200k chunks; `--quick` for a smoke run).
It starts its own PostgreSQL 16 + pgvector with `pgserver` (or uses `--pg-admin-url`), and reuses the passage
vectors cached by bench_retrieval.py under bench-results/cache/ (embedding them once if missing).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from backends_report import render
from bench_data import DATA, distinct_passages, hotpot_rows
from bench_postgres import postgres_server, postgres_settings
from bench_retrieval import GROUPS, USER_GROUPS, _draw_acl, passage_vectors

from boundloop.domain.models import SearchMode
from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import DocumentWrite, IndexBackend, WriteBatch
from boundloop.retrieval.documents import Chunk, Document
from boundloop.retrieval.postgres import PostgresIndex, dense
from boundloop.retrieval.postgres.dense import DensePlan, DenseTuning
from boundloop.retrieval.postgres.session import entitled_transaction, set_local
from boundloop.retrieval.postgres.settings import PgSettings
from boundloop.retrieval.search import hybrid_search
from boundloop.retrieval.sqlite_index import SqliteIndex

SELECTIVE = frozenset({"legal"})  # about 10% of the chunks
MODES: tuple[SearchMode, ...] = ("keyword", "vector", "hybrid")
WARMUP = 20
BATCH = 10_000


# --- the corpus ----------------------------------------------------------------------------------------------


def copy_vector(vectors: np.ndarray, n: int, jitter: float) -> np.ndarray:
    """Passage n's vector; a later copy of a passage gets a little noise (cosine ~0.98 to the original at 0.01),
    because pgvector's HNSW folds identical vectors into one graph node and would measure a much smaller graph."""
    p = n % len(vectors)
    if n < len(vectors) or jitter <= 0:
        return vectors[p : p + 1]
    noisy = vectors[p] + np.random.default_rng(n).normal(0.0, jitter, vectors.shape[1]).astype(np.float32)
    return (noisy / np.linalg.norm(noisy))[None, :]


def chunk_writes(passages: list[tuple[str, str]], vectors: np.ndarray, low: int, high: int,
                 jitter: float, batch: int = BATCH) -> Iterator[list[Any]]:
    """Chunks low..high-1 as one-chunk documents in batches; passage n % len(passages), ACL drawn per doc id."""
    for start in range(low, high, batch):
        writes = []
        for n in range(start, min(start + batch, high)):
            p = n % len(passages)
            (title, text), acl = passages[p], _draw_acl(random.Random(n))
            document = Document(f"d{n}", title, text, acl, source=f"bench://passage/{p}")
            chunk = Chunk(f"d{n}#0", document.doc_id, 0, title, text, document.source, None)
            writes.append(DocumentWrite(document, f"h{n}", [chunk], copy_vector(vectors, n, jitter)))
        yield writes


def grow(backend: IndexBackend, encoder_name: str, passages: list[tuple[str, str]], vectors: np.ndarray,
         low: int, high: int, jitter: float = 0.01, batch: int = BATCH) -> float:
    """Write chunks low..high-1 through `apply` (one transaction per batch); returns the seconds it took."""
    elapsed = 0.0
    for writes in chunk_writes(passages, vectors, low, high, jitter, batch):
        start = time.perf_counter()
        backend.apply(WriteBatch(upserts=writes, deletes=[]), encoder_name)
        elapsed += time.perf_counter() - start
    return elapsed


# --- PostgreSQL ----------------------------------------------------------------------------------------------


def server_memory(admin_url: str, settings: PgSettings) -> dict[str, Any]:
    """shared_buffers, the sizes of the table and its indexes, and the server processes' PSS."""
    import psutil
    import psycopg

    sizes: dict[str, Any] = {}
    with psycopg.connect(settings.writer_url) as conn:
        sizes["shared_buffers"] = conn.execute("SHOW shared_buffers").fetchone()[0]  # type: ignore[index]
        for name in ("chunks", "chunks_embedding_hnsw", "chunks_acl", "postings", "postings_lexeme"):
            row = conn.execute("SELECT pg_relation_size(%s::regclass)", (f"boundloop.{name}",)).fetchone()
            sizes[f"{name}_mb"] = round(row[0] / 2**20, 1)  # type: ignore[index]
        row = conn.execute("SELECT pg_total_relation_size('boundloop.chunks') "
                           "+ pg_total_relation_size('boundloop.postings')").fetchone()
        sizes["chunks_total_mb"] = round(row[0] / 2**20, 1)  # type: ignore[index]
    pss = 0
    for proc in psutil.process_iter(["name"]):
        if proc.info["name"] in ("postgres", "postmaster"):
            try:
                pss += proc.memory_full_info().pss
            except (psutil.Error, AttributeError):
                continue
    sizes["server_pss_mb"] = round(pss / 2**20, 1)
    return sizes


# --- measuring, in a fresh child process (its RSS is what a searcher needs) -----------------------------------


class Precomputed:
    """An encoder that looks up the question vectors computed by the parent (encoding costs the same for both)."""

    def __init__(self, name: str, table: dict[str, np.ndarray]) -> None:
        self.name, self.table = name, table
        self.dimension = len(next(iter(table.values())))

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.stack([self.table[t] for t in texts])


def _rss_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def _latency(step: Callable[[str], object], questions: list[str]) -> dict[str, float]:
    for q in questions[:WARMUP]:
        step(q)
    samples = []
    for q in questions:
        start = time.perf_counter()
        step(q)
        samples.append(time.perf_counter() - start)
    ms = np.asarray(samples) * 1000
    return {"p50_ms": round(float(np.percentile(ms, 50)), 2), "p95_ms": round(float(np.percentile(ms, 95)), 2)}


def open_for_search(kind: str, location: Any, tuning: DenseTuning | None = None) -> Any:
    return SqliteIndex(location) if kind == "sqlite" else PostgresIndex(location, tuning=tuning)


def measure(kind: str, location: Any, encoder_name: str, table: dict[str, np.ndarray]) -> dict[str, Any]:
    """Latency of each search mode for a broad and a selective user, and the client's RSS."""
    index, encoder, questions = open_for_search(kind, location), Precomputed(encoder_name, table), list(table)
    out: dict[str, Any] = {}
    for user, groups in (("broad", USER_GROUPS), ("selective", SELECTIVE)):
        access = AccessFilter(groups=groups)
        for mode in MODES:
            out[f"{user} {mode}"] = _latency(
                lambda q, a=access, m=mode: hybrid_search(index, encoder, q, a, 10, m), questions)
    out["rss_mb"], out["peak_rss_mb"] = _rss_mb("VmRSS"), _rss_mb("VmHWM")
    if isinstance(index, PostgresIndex):
        out["dense_plans"] = dict(index.dense_plans)
    index.close()
    return out


def _hnsw_only(index: PostgresIndex, vector: np.ndarray, access: AccessFilter, ef: int) -> list[Any]:
    with entitled_transaction(index._reader_pool(), access, "bench") as conn:
        set_local(conn, dense.plan_settings(DensePlan("hnsw", ef)))
        return dense.run_plan(conn, vector, sorted(access.groups), 10)


def recall(settings: PgSettings, table: dict[str, np.ndarray]) -> dict[str, Any]:
    """recall@10 against exact search, by distance (a hit as close as the exact 10th counts: copies tie)."""
    shipped, exact = PostgresIndex(settings), PostgresIndex(settings, tuning=DenseTuning(exact_below=10**12))
    out: dict[str, Any] = {}
    for user, groups in (("broad", USER_GROUPS), ("selective", SELECTIVE)):
        access = AccessFilter(groups=groups)
        scores: dict[str, list[float]] = {"shipped plan": [], "shipped plan, top 10 of 50": [],
                                          "plain HNSW, ef_search=40": []}
        returned: list[int] = []
        for vector in table.values():
            truth = exact.dense_candidates(vector, access, 10)
            if not truth:
                continue
            bar = truth[-1].score - 1e-6
            found = {"shipped plan": shipped.dense_candidates(vector, access, 10),
                     "shipped plan, top 10 of 50": shipped.dense_candidates(vector, access, 50)[:10],
                     "plain HNSW, ef_search=40": _hnsw_only(shipped, vector, access, 40)}
            for name, hits in found.items():
                scores[name].append(sum(h.score >= bar for h in hits) / len(truth))
            returned.append(len(found["plain HNSW, ef_search=40"]))
        out[user] = {name: round(float(np.mean(v)), 4) for name, v in scores.items()}
        out[user]["plain HNSW: mean results of 10"] = round(float(np.mean(returned)), 1)
    out["shipped plans"] = dict(shipped.dense_plans)
    out["keyword top 10 vs exact BM25"] = keyword_agreement(shipped, exact, list(table))
    shipped.close()
    exact.close()
    return out


def keyword_agreement(capped: PostgresIndex, exact: PostgresIndex, questions: list[str]) -> dict[str, float]:
    """Share of the shipped keyword top 10 (capped per word, best re-scored) as good as exact BM25's top 10.

    By score, as dense recall is by distance: a hit scoring at least the exact 10th counts (copies of one passage
    tie, and which copies fill the top 10 is arbitrary). The shipped scores are exact (re-scored), so they compare.
    """
    exact.keyword_per_term = None
    out = {}
    for user, groups in (("broad", USER_GROUPS), ("selective", SELECTIVE)):
        access, shares = AccessFilter(groups=groups), []
        for q in questions:
            truth = exact.keyword_candidates(q, access, 50)[:10]
            if truth:
                bar = truth[-1].score - 1e-6
                found = capped.keyword_candidates(q, access, 50)[:10]
                shares.append(sum(c.score >= bar for c in found) / len(truth))
        out[user] = round(float(np.mean(shares)), 4)
    return out


# --- the run -------------------------------------------------------------------------------------------------


def _child(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(fn, *args).result()


def run(args: argparse.Namespace, workdir: Path, admin_url: str) -> dict[str, Any]:
    from boundloop.retrieval.embeddings import build_embeddings

    encoder = build_embeddings()
    passages = distinct_passages(args.data)
    vectors, _ = passage_vectors(encoder, passages, Path("bench-results/cache"))
    questions = [r["question"] for r in hotpot_rows(args.data, args.questions)]
    table = {q: v for q, v in zip(questions, encoder.encode(questions), strict=True)}
    settings = postgres_settings(admin_url)
    backends: dict[str, Any] = {"sqlite": SqliteIndex(workdir / "sqlite", create=True),
                                "postgres": PostgresIndex(settings, create=True)}
    where = {"sqlite": workdir / "sqlite", "postgres": settings}
    result: dict[str, Any] = {"distinct_passages": len(passages), "questions": len(questions), "sizes": {}}
    built, write_s = 0, {"sqlite": 0.0, "postgres": 0.0}
    for size in args.sizes:
        row: dict[str, Any] = {}
        for kind, backend in backends.items():
            write_s[kind] += grow(backend, encoder.name, passages, vectors, built, size, args.jitter, args.batch)
            row[kind] = {"write_chunks_per_s": round(size / write_s[kind], 1)}
            print(f"[bench] {kind}: {size} chunks written in {write_s[kind]:.0f} s", file=sys.stderr, flush=True)
        built = size
        for kind in backends:
            row[kind].update(_child(measure, kind, where[kind], encoder.name, table))
        row["sqlite"]["db_mb"] = round((workdir / "sqlite" / "index.db").stat().st_size / 2**20, 1)
        row["postgres"].update(server_memory(admin_url, settings))
        row["postgres"]["recall@10"] = _child(recall, settings, table)
        result["sizes"][str(size)] = row
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")  # partial results too
        print(f"[bench] {size} chunks measured", file=sys.stderr, flush=True)
    for backend in backends.values():
        backend.close()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare the SQLite and PostgreSQL index backends.")
    parser.add_argument("--sizes", default="10000,50000,200000", help="index sizes to measure, ascending")
    parser.add_argument("--questions", type=int, default=200, help="HotpotQA dev questions per measurement")
    parser.add_argument("--quick", action="store_true", help="smoke run: 2,000 and 5,000 chunks, 30 questions")
    parser.add_argument("--batch", type=int, default=BATCH, help="chunks per apply() (one transaction)")
    parser.add_argument("--jitter", type=float, default=0.01, help="noise on reused passage vectors (0: exact copies)")
    parser.add_argument("--pg-admin-url", help="a superuser URL of a running server (default: start pgserver)")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared evaluation data folder")
    parser.add_argument("--out", type=Path, default=Path("bench-results/backends.json"))
    args = parser.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",")]
    if args.quick:
        args.sizes, args.questions = [2000, 5000], 30
    args.out.parent.mkdir(parents=True, exist_ok=True)
    header = {"command": " ".join(["python", *sys.argv]), "date": datetime.now(UTC).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
              "load_average_at_start": os.getloadavg(), "groups": GROUPS, "broad_user": sorted(USER_GROUPS),
              "selective_user": sorted(SELECTIVE), "jitter": args.jitter, "batch": args.batch}
    with (tempfile.TemporaryDirectory(prefix="bench-backends-") as tmp,
          postgres_server(Path(tmp), args.pg_admin_url) as admin):
        result = run(args, Path(tmp), admin)
    result = {**header, **result}
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(render(result, MODES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
