"""Keyword (and hybrid) recall@10 of both index backends on pooled HotpotQA, side by side in one run.

Run from the repository root: `python benchmarks/backends_quality.py` (dev split, 300 questions). The paragraphs of
the questions are pooled into one corpus (doc id = title, as `bench_retrieval.py`'s quality stage), written once
into an embedded index and once into a PostgreSQL index (its own `pgserver`, or `--pg-admin-url`), with the same
vectors; each question is searched on both for a user who may see everything.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from bench_data import DATA, hotpot_rows, pooled_hotpot
from bench_postgres import postgres_server, postgres_settings

from boundloop.domain.models import SearchMode
from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import IndexBackend
from boundloop.retrieval.embeddings import build_embeddings
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.postgres import PostgresIndex
from boundloop.retrieval.search import hybrid_search
from boundloop.retrieval.sqlite_index import SqliteIndex

MODES: tuple[SearchMode, ...] = ("keyword", "hybrid")


class OnceEncoder:
    """The real encoder, each text encoded once: both backends get the same vectors."""

    def __init__(self) -> None:
        self.inner = build_embeddings()
        self.name, self.dimension = self.inner.name, self.inner.dimension
        self.seen: dict[str, np.ndarray] = {}

    def encode(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.seen]
        if missing:
            self.seen.update(zip(missing, self.inner.encode(missing), strict=True))
        return np.stack([self.seen[t] for t in texts])


def recall_at_10(index: IndexBackend, encoder: OnceEncoder, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per mode: share of questions with both gold paragraphs in the top 10, and mean share of gold found."""
    access = AccessFilter(groups=frozenset({"all"}))
    out: dict[str, Any] = {}
    for mode in MODES:
        both, frac = [], []
        for row in rows:
            gold = set(row["supporting_facts"]["title"])
            top = {hit.doc_id for hit in hybrid_search(index, encoder, row["question"], access, 10, mode)}
            both.append(gold <= top)
            frac.append(len(gold & top) / len(gold))
        out[mode] = {"both@10": round(statistics.mean(both), 4), "frac@10": round(statistics.mean(frac), 4)}
    return out


def run(rows: list[dict[str, Any]], workdir: Path, admin_url: str) -> dict[str, Any]:
    encoder, pool = OnceEncoder(), pooled_hotpot(rows)
    backends: dict[str, IndexBackend] = {"sqlite": SqliteIndex(workdir / "sqlite", create=True),
                                         "postgres": PostgresIndex(postgres_settings(admin_url), create=True)}
    result: dict[str, Any] = {"questions": len(rows), "documents": len(pool)}
    for kind, backend in backends.items():
        ingest(backend, encoder, pool, show_progress=False)
        result[kind] = recall_at_10(backend, encoder, rows)
        backend.close()
    result["keyword both@10, postgres - sqlite"] = round(
        result["postgres"]["keyword"]["both@10"] - result["sqlite"]["keyword"]["both@10"], 4)
    result["keyword frac@10, postgres - sqlite"] = round(
        result["postgres"]["keyword"]["frac@10"] - result["sqlite"]["keyword"]["frac@10"], 4)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Keyword recall@10 of both backends on pooled HotpotQA dev.")
    parser.add_argument("--questions", type=int, default=300, help="HotpotQA dev questions (their paragraphs pooled)")
    parser.add_argument("--pg-admin-url", help="a superuser URL of a running server (default: start pgserver)")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared evaluation data folder")
    parser.add_argument("--out", type=Path, default=Path("bench-results/backends-quality.json"))
    args = parser.parse_args(argv)
    rows = hotpot_rows(args.data, args.questions)
    with (tempfile.TemporaryDirectory(prefix="bench-quality-") as tmp,
          postgres_server(Path(tmp), args.pg_admin_url) as admin):
        result = run(rows, Path(tmp), admin)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
