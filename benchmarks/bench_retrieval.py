"""Retrieval benchmark: ingest throughput, ACL-filtered search latency at scale, and pooled HotpotQA recall.

Run from the repository root: `python benchmarks/bench_retrieval.py --repeat 3` (add `--quick` for a smoke run).
Reads the shared evaluation data (never copied into the repo); caches passage vectors under bench-results/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from bench_data import DATA, distinct_passages, hotpot_rows, ingest_documents, pooled_hotpot
from retrieval_report import render

from boundloop.domain.models import SearchMode
from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import DocumentWrite, Encoder, WriteBatch
from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Chunk, Document
from boundloop.retrieval.embeddings import build_embeddings
from boundloop.retrieval.ingest import EMBED_STEP, ingest
from boundloop.retrieval.search import hybrid_search
from boundloop.retrieval.sqlite_index import SqliteIndex

GROUPS = ["all-staff", "engineering", "finance", "hr", "legal", "sales", "support", "research", "exec", "ops"]
USER_GROUPS = frozenset({"all-staff", "engineering", "finance"})
MODES: tuple[SearchMode, ...] = ("keyword", "vector", "hybrid")
WARMUP = 20


# --- 1. ingest throughput -------------------------------------------------------------------------------------


def _timed(fn: Callable[[], Any]) -> tuple[float, float]:
    """Wall and process CPU seconds of one call."""
    start, start_cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - start_cpu


def _encode_like_ingest(encoder: Encoder, texts: list[str]) -> None:
    for start in range(0, len(texts), EMBED_STEP):  # the same batches as ingest() uses
        encoder.encode(texts[start : start + EMBED_STEP])


def _ingest_once(encoder: Encoder, documents: list[Document]) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        index = SqliteIndex(tmp, create=True)
        elapsed = _timed(lambda: ingest(index, encoder, documents, show_progress=False))
        index.close()
    return elapsed


def bench_ingest(data: Path, n_docs: int, repeat: int) -> dict[str, Any]:
    documents = ingest_documents(data, n_docs)
    texts = [f"{c.title}\n{c.text}" for d in documents for c in chunk_document(d)]
    int8, fp32 = build_embeddings(), build_embeddings("minilm-fp32")
    for encoder in (int8, fp32):
        encoder.encode(texts[:16])  # warm-up
    runs = {
        "ingest_e2e": [_ingest_once(int8, documents) for _ in range(repeat)],
        "encoder_int8": [_timed(lambda: _encode_like_ingest(int8, texts)) for _ in range(repeat)],
        "encoder_fp32": [_timed(lambda: _encode_like_ingest(fp32, texts)) for _ in range(repeat)],
    }
    rates = {name: len(texts) / statistics.median(wall for wall, _ in times) for name, times in runs.items()}
    per_cpu = {name: len(texts) / statistics.median(cpu for _, cpu in times) for name, times in runs.items()}
    words = statistics.mean(len(d.text.split()) for d in documents)
    return {"documents": n_docs, "chunks": len(texts), "mean_words": round(words, 1), "repeat": repeat,
            "chunks_per_s": {k: round(v, 1) for k, v in rates.items()},
            "chunks_per_cpu_s": {k: round(v, 1) for k, v in per_cpu.items()},
            "int8_over_fp32": round(rates["encoder_int8"] / rates["encoder_fp32"], 2)}


# --- 2. search latency at scale -------------------------------------------------------------------------------


def passage_vectors(encoder: Encoder, passages: list[tuple[str, str]], cache: Path) -> tuple[np.ndarray, float]:
    """Each passage embedded once (as ingest would: title, newline, text); cached on disk by content."""
    digest = hashlib.sha256(json.dumps([encoder.name, passages]).encode("utf-8")).hexdigest()[:16]
    path = cache / f"passages-{digest}.npy"
    if path.exists():
        return np.load(path), 0.0
    start = time.perf_counter()
    vectors = encoder.encode([f"{title}\n{text}" for title, text in passages])
    cache.mkdir(parents=True, exist_ok=True)
    partial_path = path.with_suffix(f".{os.getpid()}.npy")
    np.save(partial_path, vectors)
    os.replace(partial_path, path)  # atomic: another benchmark may read the cache meanwhile
    return vectors, time.perf_counter() - start


def _draw_acl(rng: random.Random) -> tuple[str, ...]:
    """1-2 groups per document; the all-staff group on about 60% of them."""
    others = GROUPS[1:]
    if rng.random() < 0.6:
        return ("all-staff",) if rng.random() < 0.5 else ("all-staff", rng.choice(others))
    return tuple(rng.sample(others, rng.choice((1, 2))))


def build_scale_index(folder: Path, encoder_name: str, passages: list[tuple[str, str]], vectors: np.ndarray,
                      n_chunks: int, batch: int = 10_000) -> dict[str, Any]:
    """`n_chunks` one-chunk documents written through `SqliteIndex.apply`, reusing passages under new doc ids."""
    rng, permitted, index = random.Random(7), 0, SqliteIndex(folder, create=True)
    start = time.perf_counter()
    for low in range(0, n_chunks, batch):
        writes = []
        for n in range(low, min(low + batch, n_chunks)):
            p = n % len(passages)
            (title, text), acl = passages[p], _draw_acl(rng)
            permitted += bool(USER_GROUPS.intersection(acl))
            document = Document(f"d{n}", title, text, acl, source=f"bench://passage/{p}")
            chunk = Chunk(f"d{n}#0", document.doc_id, 0, title, text, document.source, None)
            writes.append(DocumentWrite(document, f"h{n}", [chunk], vectors[p : p + 1]))
        index.apply(WriteBatch(upserts=writes, deletes=[]), encoder_name)
    build_s = time.perf_counter() - start
    stats = index.stats()
    index.close()
    size = sum(f.stat().st_size for f in folder.iterdir())
    copies = sorted({n_chunks // len(passages), -(-n_chunks // len(passages))})
    return {"chunks": stats["chunks"], "distinct_passages": len(passages),
            "copies_per_passage": " or ".join(map(str, copies)), "build_s": round(build_s, 1),
            "db_mb": round(size / 2**20, 1), "permitted_chunks": permitted}


def _proc_status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def _percentiles(samples: list[float], prefix: str = "") -> dict[str, float]:
    ms = np.asarray(samples) * 1000
    return {f"{prefix}p{p}_ms": round(float(np.percentile(ms, p)), 2) for p in (50, 95)}


def _search(index: SqliteIndex, encoder: Encoder, access: AccessFilter, mode: SearchMode, query: str) -> object:
    return hybrid_search(index, encoder, query, access, 10, mode)


def _latencies(step: Callable[[str], object], questions: list[str]) -> dict[str, float]:
    for q in questions[:WARMUP]:
        step(q)
    wall, cpu = [], []
    for q in questions:
        start, start_cpu = time.perf_counter(), time.process_time()
        step(q)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return {**_percentiles(wall), **_percentiles(cpu, "cpu_")}


def measure_search(folder: str, questions: list[str]) -> dict[str, Any]:
    """Run in a fresh child process so its RSS is what a searcher of this index needs (no torch, no builder)."""
    index, encoder, access = SqliteIndex(folder), build_embeddings(), AccessFilter(groups=USER_GROUPS)
    vectors = {q: encoder.encode([q])[0] for q in questions}
    cache_load_s, _ = _timed(lambda: index.dense_candidates(vectors[questions[0]], access, 50))
    steps: dict[str, Callable[[str], object]] = {
        "query encoding (int8)": lambda q: encoder.encode([q]),
        "keyword_candidates (50)": lambda q: index.keyword_candidates(q, access, 50),
        "dense_candidates (50, pre-encoded)": lambda q: index.dense_candidates(vectors[q], access, 50),
    }
    for mode in MODES:
        steps[f"hybrid_search mode={mode}, k=10"] = partial(_search, index, encoder, access, mode)
    latency = {name: _latencies(step, questions) for name, step in steps.items()}
    return {"queries": len(questions), "user_groups": sorted(USER_GROUPS), "latency": latency,
            "vector_cache_load_s": round(cache_load_s, 2),
            "rss_mb": _proc_status_mb("VmRSS"), "peak_rss_mb": _proc_status_mb("VmHWM")}


def bench_search(data: Path, n_chunks: int, questions: list[str], workdir: Path) -> dict[str, Any]:
    encoder = build_embeddings()
    passages = distinct_passages(data)[:n_chunks]  # a small index needs no more passages than chunks
    vectors, embed_s = passage_vectors(encoder, passages, workdir / "cache")
    with tempfile.TemporaryDirectory(prefix="bench-scale-", dir=workdir) as tmp:
        built = build_scale_index(Path(tmp), encoder.name, passages, vectors, n_chunks)
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            measured = pool.submit(measure_search, tmp, questions).result()
    return {**built, "passage_embedding_s": round(embed_s, 1), **measured}


# --- 3. pooled retrieval quality ------------------------------------------------------------------------------


def recall(index: SqliteIndex, encoder: Encoder, rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per mode: share of questions with every gold paragraph in the top k (both), and mean share of gold found."""
    access = AccessFilter(groups=frozenset({"all"}))
    out: dict[str, dict[str, float]] = {}
    for mode in MODES:
        found: dict[int, list[float]] = {5: [], 10: [], 20: []}
        for row in rows:
            gold = set(row["supporting_facts"]["title"])
            ranked = [hit.doc_id for hit in hybrid_search(index, encoder, row["question"], access, 20, mode)]
            for k, shares in found.items():
                shares.append(len(gold & set(ranked[:k])) / len(gold))
        out[mode] = {**{f"both@{k}": round(statistics.mean(s == 1.0 for s in v), 3) for k, v in found.items()},
                     **{f"frac@{k}": round(statistics.mean(v), 3) for k, v in found.items()}}
    return out


def bench_quality(rows: list[dict[str, Any]], workdir: Path) -> dict[str, Any]:
    pool = pooled_hotpot(rows)
    result: dict[str, Any] = {"questions": len(rows), "documents": len(pool)}
    for spec in ("minilm", "minilm-fp32"):
        encoder = build_embeddings(spec)
        with tempfile.TemporaryDirectory(prefix="bench-quality-", dir=workdir) as tmp:
            index = SqliteIndex(tmp, create=True)
            result["chunks"] = ingest(index, encoder, pool, show_progress=False).chunks_written
            result[encoder.name] = recall(index, encoder, rows)
            index.close()
    return result


def _sources_digest() -> str:
    """Which code was measured: a digest of the retrieval package's sources (the working tree may be uncommitted)."""
    digest = hashlib.sha256()
    for path in sorted((Path(__file__).resolve().parents[1] / "retrieval").glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark ingest, ACL-filtered search and pooled recall.")
    parser.add_argument("--docs", type=int, default=2000, help="documents for the ingest benchmark")
    parser.add_argument("--chunks", type=int, default=100_000, help="chunks in the search-latency index")
    parser.add_argument("--questions", type=int, default=300, help="HotpotQA dev questions (latency, quality)")
    parser.add_argument("--repeat", type=int, default=1, help="ingest runs; the median is reported")
    parser.add_argument("--quick", action="store_true", help="smoke run: 200 docs, 5,000 chunks, 50 questions")
    parser.add_argument("--only", default="ingest,search,quality", help="comma-separated stages to run")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared evaluation data folder")
    parser.add_argument("--out", type=Path, default=Path("bench-results/retrieval.json"))
    args = parser.parse_args(argv)
    if args.quick:
        args.docs, args.chunks, args.questions = 200, 5000, 50

    import torch

    torch.set_num_threads(2)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows = hotpot_rows(args.data, args.questions)
    result: dict[str, Any] = {
        "command": " ".join(["python", *sys.argv]),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "retrieval_sources_sha256": {"start": _sources_digest()},
        "load_average": {"start": os.getloadavg()},
    }
    stages: dict[str, Callable[[], dict[str, Any]]] = {
        "ingest": lambda: bench_ingest(args.data, args.docs, args.repeat),
        "search": lambda: bench_search(args.data, args.chunks, [r["question"] for r in rows], args.out.parent),
        "quality": lambda: bench_quality(rows, args.out.parent),
    }
    chosen = [name.strip() for name in args.only.split(",")]
    if unknown := set(chosen) - set(stages):
        parser.error(f"unknown stage(s) {sorted(unknown)}; choose from {list(stages)}")
    for name in chosen:
        stage = stages[name]
        print(f"[bench] {name}...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        result[name] = stage()
        result["load_average"][name] = os.getloadavg()
        result["retrieval_sources_sha256"][name] = _sources_digest()
        print(f"[bench] {name} done in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(render(result, len(GROUPS), WARMUP, MODES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
