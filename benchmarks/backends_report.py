"""Markdown tables of `bench_backends.py`'s results (latency, recall, memory per index size and backend)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def render(result: dict[str, Any], modes: Sequence[str]) -> str:
    """Markdown: latency per size and backend, then PostgreSQL's recall and memory, then SQLite's memory."""
    sizes = list(result["sizes"])
    cols = [f"{u} {m}" for u in ("broad", "selective") for m in modes]
    lines = ["| chunks | backend | write chunks/s | " + " | ".join(f"{c} p50 / p95 ms" for c in cols)
             + " | client RSS MB |", "|" + "---|" * (len(cols) + 4)]
    for size in sizes:
        for kind in ("sqlite", "postgres"):
            r = result["sizes"][size][kind]
            cells = [f"{r[c]['p50_ms']} / {r[c]['p95_ms']}" for c in cols]
            lines.append(f"| {size} | {kind} | {r['write_chunks_per_s']} | " + " | ".join(cells)
                         + f" | {r['rss_mb']} |")
    lines += ["", "| chunks | PostgreSQL / embedded: broad keyword p50 | broad hybrid p50 | selective hybrid p50 | "
              "write chunks/s |", "|---|---|---|---|---|"]
    for size in sizes:
        lite, pg = result["sizes"][size]["sqlite"], result["sizes"][size]["postgres"]
        ratios = [round(pg[c]["p50_ms"] / lite[c]["p50_ms"], 2) for c in ("broad keyword", "broad hybrid",
                                                                          "selective hybrid")]
        write = round(pg["write_chunks_per_s"] / lite["write_chunks_per_s"], 3)
        lines.append(f"| {size} | {ratios[0]}x | {ratios[1]}x | {ratios[2]}x | {write}x |")
    lines += ["", "| chunks | user | recall@10 shipped (k=10) | recall@10, top 10 of the 50 candidates search uses | "
              "plain HNSW ef_search=40: recall@10 / results of 10 | plans used in search | "
              "keyword top 10 shared with exact BM25 |",
              "|---|---|---|---|---|---|---|"]
    for size in sizes:
        pg = result["sizes"][size]["postgres"]
        for user in ("broad", "selective"):
            rec_all = pg["recall@10"]
            rec = rec_all[user]
            lines.append(f"| {size} | {user} | {rec['shipped plan']} | {rec.get('shipped plan, top 10 of 50', '')} | "
                         f"{rec['plain HNSW, ef_search=40']} / {rec['plain HNSW: mean results of 10']} | "
                         f"{pg.get('dense_plans', {})} | "
                         f"{rec_all.get('keyword top 10 vs exact BM25', {}).get(user, '')} |")
    lines += ["", "| chunks | PostgreSQL: table MB | HNSW MB | GIN acl MB | postings MB | postings index MB | "
              "total with indexes MB | shared_buffers | server PSS MB | SQLite: file MB | "
              "search process peak RSS MB (sqlite / postgres) |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for size in sizes:
        pg, lite = result["sizes"][size]["postgres"], result["sizes"][size]["sqlite"]
        lines.append(f"| {size} | {pg['chunks_mb']} | {pg['chunks_embedding_hnsw_mb']} | {pg['chunks_acl_mb']} | "
                     f"{pg['postings_mb']} | {pg['postings_lexeme_mb']} | {pg['chunks_total_mb']} | "
                     f"{pg['shared_buffers']} | {pg['server_pss_mb']} | {lite['db_mb']} | "
                     f"{lite['peak_rss_mb']} / {pg['peak_rss_mb']} |")
    return "\n".join(lines)
