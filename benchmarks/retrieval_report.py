"""Markdown tables for the JSON that bench_retrieval.py writes (only the stages that ran)."""

from __future__ import annotations

from typing import Any

HYBRID_TARGET = "p50 <= 30, p95 <= 80"


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    return "\n".join(lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows])


def _check(value: float, ok: bool) -> str:
    return f"{value} {'(met)' if ok else '(MISSED)'}"


def _ingest(ing: dict[str, Any]) -> list[str]:
    rate, cpu = ing["chunks_per_s"], ing["chunks_per_cpu_s"]
    return [
        f"### Ingest: {ing['documents']} documents (~{ing['mean_words']} words, {ing['chunks']} chunks), "
        f"median of {ing['repeat']}. Chunks per CPU-second counts every thread of the process: the work, "
        "whatever else runs on the machine",
        _table(["measure", "chunks/s", "chunks per CPU-s", "target"], [
            ["ingest() end to end, int8 (chunk + embed + SQLite)",
             _check(rate["ingest_e2e"], rate["ingest_e2e"] >= 100), cpu["ingest_e2e"], ">= 100 chunks/s"],
            ["int8 ONNX encoder alone", rate["encoder_int8"], cpu["encoder_int8"], ""],
            ["fp32 sentence-transformers encoder alone", rate["encoder_fp32"], cpu["encoder_fp32"], ""],
            ["int8 / fp32 speed", f"{ing['int8_over_fp32']}x", "", ""]]),
    ]


def _search(s: dict[str, Any], groups: int, warmup: int) -> list[str]:
    return [
        f"### Search: {s['chunks']} chunks = {s['distinct_passages']} distinct real passages, each written "
        f"{s['copies_per_passage']} times under different doc ids; ACLs from {groups} groups; "
        f"user {'+'.join(s['user_groups'])} may see {s['permitted_chunks']} chunks; "
        f"{s['queries']} HotpotQA dev questions after {warmup} warm-up queries. "
        "CPU = CPU time of the search process per query, all threads: the work, unaffected by other processes "
        "sharing the cores; for single-threaded steps (keyword) it is the uncontended latency.",
        _table(["measure", "p50 ms", "p95 ms", "CPU p50 ms", "CPU p95 ms", "target"], [
            [name, v["p50_ms"], v["p95_ms"], v["cpu_p50_ms"], v["cpu_p95_ms"],
             HYBRID_TARGET if name.startswith("hybrid_search") else ""]
            for name, v in s["latency"].items()]),
        _table(["measure", "value", "target"], [
            ["RSS after loading and searching (MB)", _check(s["rss_mb"], s["rss_mb"] <= 1024), "<= 1024"],
            ["peak RSS of the search process (MB)", s["peak_rss_mb"], ""],
            ["vector cache load on first dense search (s)", s["vector_cache_load_s"], ""],
            ["index build through SqliteIndex.apply (s)", s["build_s"], ""],
            ["index size on disk (MB)", s["db_mb"], ""]]),
    ]


def _quality(q: dict[str, Any], modes: tuple[str, ...]) -> list[str]:
    encoders = [name for name, value in q.items() if isinstance(value, dict)]
    return [
        f"### Quality: pooled HotpotQA dev, {q['questions']} questions against {q['documents']} paragraphs "
        f"({q['chunks']} chunks); gold = supporting-fact paragraphs; both@k = all gold in the top k, "
        "frac@k = mean share of gold in the top k",
        _table(["encoder", "mode", "both@5", "both@10", "both@20", "frac@5", "frac@10", "frac@20"], [
            [enc, mode, *q[enc][mode].values()] for enc in encoders for mode in modes]),
    ]


def render(result: dict[str, Any], groups: int, warmup: int, modes: tuple[str, ...]) -> str:
    """The stages present in `result` as Markdown, with the machine load each stage ran under."""
    parts: list[str] = []
    if "ingest" in result:
        parts += _ingest(result["ingest"])
    if "search" in result:
        parts += _search(result["search"], groups, warmup)
    if "quality" in result:
        parts += _quality(result["quality"], modes)
    loads = ", ".join(f"{stage} {load[0]:.1f}" for stage, load in result["load_average"].items())
    digests = result["retrieval_sources_sha256"]
    code = digests["start"] if len(set(digests.values())) == 1 else f"CHANGED DURING THE RUN {digests}"
    parts.append(f"{result['date']}, {result['machine']}, retrieval sources sha256 {code}; "
                 f"1-minute load average at the end of each stage: {loads}.")
    return "\n\n".join(parts)
