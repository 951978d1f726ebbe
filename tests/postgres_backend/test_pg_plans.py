"""Keyword search (and title lookup) use their indexes under FORCE ROW LEVEL SECURITY: the plan, read with EXPLAIN as
the reader for a user who may see 75% of the chunks, never scans `chunks` (or `postings`) sequentially.

Before migration 5, this plan was a sequential scan of every chunk: the policy ran first and the full-text match
`@@` (not leakproof) could not use its GIN index under RLS. Also checks that bulk batches rebuild the indexes
they defer, inside the batch, and that a failing bulk batch leaves them as they were; and when statistics are
refreshed.
"""

from __future__ import annotations

import random

import numpy as np
import psycopg
import pytest

from boundloop.retrieval.backend import DocumentWrite, WriteBatch
from boundloop.retrieval.documents import Chunk, Document
from boundloop.retrieval.postgres import PostgresIndex, keyword, writer
from boundloop.retrieval.postgres.bulk import DEFERRABLE, HNSW_INDEX, BulkTuning, hnsw_definition
from boundloop.retrieval.postgres.settings import PgSettings
from boundloop.retrieval.postgres.vectors import register_vector
from tests.conftest import access
from tests.postgres_backend.databases import drop_index

pytestmark = pytest.mark.slow
N = 4000
BROAD, SELECTIVE = ("all-staff", "engineering"), ("legal",)
WORDS = [f"w{i}" for i in range(600)] + ["harbour", "lighthouse", "keeper", "island", "ferry"]


def documents(start: int, n: int) -> list[DocumentWrite]:
    """One-chunk documents of 40 words (Zipf-like, so some words are in most chunks); 75% broad, 25% legal."""
    rng, writes = random.Random(start), []
    weights = [1 / (i + 1) for i in range(len(WORDS))]
    for i in range(start, start + n):
        text = " ".join(rng.choices(WORDS, weights, k=40))
        acl = SELECTIVE if i % 4 == 0 else BROAD[: 1 + i % 2]
        doc = Document(f"d{i}", f"title {i}", text, acl)
        vector = np.random.default_rng(i).normal(size=(1, 8)).astype(np.float32)
        writes.append(DocumentWrite(doc, f"h{i}", [Chunk(f"d{i}#0", doc.doc_id, 0, doc.title, text, "", None)],
                                    vector / np.linalg.norm(vector)))
    return writes


@pytest.fixture(scope="module")
def big(pg_index_database) -> PgSettings:
    drop_index(pg_index_database)
    index = PostgresIndex(pg_index_database, create=True)
    index.apply(WriteBatch(upserts=documents(0, N), deletes=[]), "random-8")
    index.close()
    return pg_index_database


def plan(url: str, sql: str, params: dict[str, object], groups: tuple[str, ...]) -> str:
    with psycopg.connect(url) as conn:
        conn.execute("SELECT set_config('boundloop.groups', %s::text[]::text, false)", (sorted(groups),))
        return "\n".join(row[0] for row in conn.execute(f"EXPLAIN {sql}", params))  # type: ignore[call-overload]


@pytest.mark.parametrize("query", ["harbour lighthouse keeper", "w0 w1 w2 harbour", "w3 island ferry w5 w8"])
def test_keyword_plan_uses_indexes_for_a_broad_user(big, query):
    params = {"query": keyword.query_text(query), "groups": sorted(BROAD), "limit": 50,
              "per_term": keyword.POSTINGS_PER_TERM, "pool": keyword.RESCORED}
    shown = plan(big.reader_url, keyword._KEYWORD_SQL, params, BROAD)
    assert "Seq Scan on chunks" not in shown and "Seq Scan on postings" not in shown, shown
    assert "Index Only Scan using postings_lexeme on postings" in shown, shown
    with psycopg.connect(big.reader_url) as conn:  # the reader is what searches use: it is confined by RLS
        assert conn.execute("SELECT relforcerowsecurity FROM pg_class WHERE oid = 'boundloop.chunks'::regclass"
                            ).fetchone() == (True,)


def test_title_plan_uses_the_key_indexes_for_a_broad_user(big):
    from boundloop.retrieval.postgres import titles

    params = {"keys": ["title 12", "title 3001"], "groups": sorted(BROAD), "limit": 10}
    shown = plan(big.reader_url, titles._TITLE_SQL, params, BROAD)
    assert "Seq Scan on chunks" not in shown and "chunks_title_key_1" in shown, shown
    index = PostgresIndex(big)
    try:
        assert [c.chunk_id for c in index.title_candidates(["Title 3001", "title 12"], access(*BROAD), 10)] == [
            "d3001#0"]  # d12 is legal's
    finally:
        index.close()


def test_keyword_results_stay_within_the_groups_and_match_exact_bm25(big):
    index = PostgresIndex(big)
    exact = PostgresIndex(big, keyword_per_term=None)
    try:
        for groups in (BROAD, SELECTIVE):
            found = index.keyword_candidates("w0 w1 harbour", access(*groups), 50)
            assert found and all(int(c.chunk_id[1:].split("#")[0]) % 4 == 0 for c in found) == (groups == SELECTIVE)
            assert [c.chunk_id for c in found] == [c.chunk_id for c in exact.keyword_candidates(
                "w0 w1 harbour", access(*groups), 50)]  # 4,000 chunks: below the per-word cap, so exact
    finally:
        index.close()
        exact.close()


def index_names(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        return {n for (n,) in conn.execute("SELECT indexname FROM pg_indexes WHERE schemaname = 'boundloop'")}


def test_a_bulk_batch_rebuilds_the_indexes_it_deferred(pg_index_database, monkeypatch):
    drop_index(pg_index_database)
    index = PostgresIndex(pg_index_database, create=True)
    index.apply(WriteBatch(upserts=documents(0, 300), deletes=[]), "random-8")
    calls = []
    monkeypatch.setattr(writer.bulk, "defers", lambda existing, adding, tuning: calls.append(adding) or True)

    def broken(copy, write):  # the bulk batch fails half way: indexes and rows stay as they were
        raise RuntimeError("crash mid-batch")

    with monkeypatch.context() as patch:
        patch.setattr(writer, "write_chunks", broken)
        with pytest.raises(RuntimeError):
            index.apply(WriteBatch(upserts=documents(300, 300), deletes=[]), "random-8")
    assert set(DEFERRABLE) <= index_names(pg_index_database.writer_url) and index.stats()["chunks"] == 300
    index.apply(WriteBatch(upserts=documents(300, 300), deletes=[]), "random-8")
    assert calls and set(DEFERRABLE) <= index_names(pg_index_database.writer_url)
    assert index.stats()["chunks"] == 600
    written = documents(0, 300) + documents(300, 300)
    assert {c.chunk_id for c in index.keyword_candidates("harbour", access(*SELECTIVE), 500)} == {
        w.chunks[0].chunk_id for w in written if "legal" in w.document.acl and "harbour" in w.document.text.split()}
    index.close()


def test_bulk_rule():
    from boundloop.retrieval.postgres.bulk import defers

    tuning = BulkTuning(min_rows=1000)
    assert defers(0, 1000, tuning) and defers(5000, 5000, tuning)
    assert not defers(0, 999, tuning) and not defers(5001, 5000, tuning)


def test_a_graph_rebuilt_for_a_large_index_gets_a_larger_ef_construction(pg_index_database):
    assert "ef_construction = 64" in hnsw_definition(499_999, BulkTuning())
    assert "ef_construction = 128" in hnsw_definition(500_000, BulkTuning())
    drop_index(pg_index_database)
    index = PostgresIndex(pg_index_database, create=True)
    index.apply(WriteBatch(upserts=documents(0, 50), deletes=[]), "random-8")  # row by row: the default graph
    assert "ef_construction='64'" in hnsw_indexdef(pg_index_database.writer_url)
    with psycopg.connect(pg_index_database.writer_url) as conn:  # a bulk batch that makes the index "large"
        register_vector(conn)
        writer.apply_batch(conn, WriteBatch(upserts=documents(50, 100), deletes=[]), "random-8",
                           BulkTuning(min_rows=100, large_graph_rows=150))
    assert "ef_construction='128'" in hnsw_indexdef(pg_index_database.writer_url)
    assert len(index.dense_candidates(documents(60, 1)[0].vectors[0], access(*BROAD), 5)) == 5
    index.close()


def hnsw_indexdef(url: str) -> str:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", (HNSW_INDEX,)).fetchone()
    return str(row[0]) if row else ""


def test_statistics_are_refreshed_once_a_tenth_of_the_index_changed(pg_index_database):
    drop_index(pg_index_database)
    PostgresIndex(pg_index_database, create=True).close()
    with psycopg.connect(pg_index_database.writer_url) as conn:
        conn.execute("UPDATE boundloop.meta SET value = '20000' WHERE key = 'chunks'")
        stale = [writer.statistics_stale(conn, n) for n in (500, 1000, 600, 1000, 5000)]
        conn.rollback()
    assert stale == [False, False, True, False, True]  # 2,100 and 6,000 changed: at least 1,000 and 10% of 20,000
