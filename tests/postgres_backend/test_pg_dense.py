"""Dense search on pgvector 0.6: HNSW with a post-filter would return fewer than k permitted chunks, so the plan
widens ef_search, falls back to exact search, or goes exact for selective filters. Checked on 3,000 vectors."""

from __future__ import annotations

import numpy as np
import pytest

from boundloop.retrieval.backend import DocumentWrite, WriteBatch
from boundloop.retrieval.documents import Chunk, Document
from boundloop.retrieval.postgres import PostgresIndex
from boundloop.retrieval.postgres.dense import DensePlan, DenseTuning, choose_plan
from tests.conftest import access
from tests.postgres_backend.databases import drop_index

pytestmark = pytest.mark.slow
N, DIM, LIMIT = 3000, 16, 50


def acl_of(i: int) -> tuple[str, ...]:
    """common: 90% of rows; mid: 10%; rare: 2% (inside mid)."""
    if i % 50 == 0:
        return ("mid", "rare")
    return ("mid",) if i % 10 == 0 else ("common",)


@pytest.fixture(scope="module")
def corpus(pg_index_database):
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(N, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    writes = []
    for i in range(N):
        doc = Document(f"d{i}", "t", f"text {i}", acl_of(i))
        writes.append(DocumentWrite(doc, f"h{i}", [Chunk(f"d{i}#0", doc.doc_id, 0, "t", doc.text, "", None)],
                                    vectors[i : i + 1]))
    drop_index(pg_index_database)
    index = PostgresIndex(pg_index_database, create=True)
    index.apply(WriteBatch(upserts=writes, deletes=[]), "random-16")
    index.close()
    return vectors


def open_index(settings, **tuning) -> PostgresIndex:
    return PostgresIndex(settings, tuning=DenseTuning(**tuning))


def hnsw_index(settings, **tuning) -> PostgresIndex:
    """HNSW whenever the filter allows it (the corpus is small enough for exact search to win otherwise)."""
    return open_index(settings, exact_below=0, exact_rows_per_ef=0, **tuning)


def exact_top(vectors: np.ndarray, query: np.ndarray, group: str, k: int) -> list[str]:
    allowed = np.array([group in acl_of(i) for i in range(N)])
    scores = np.where(allowed, vectors @ query, -np.inf)
    return [f"d{i}#0" for i in np.argsort(-scores, kind="stable")[:k]]


@pytest.mark.parametrize(
    "permitted, total, limit, expected",
    [
        (500, 1_000_000, 50, DensePlan("exact")),          # few rows: exact is cheap
        (20_000, 1_000_000, 50, DensePlan("exact")),       # 2%: even ef_search=1000 would hold ~20 of them
        (60_000, 100_000, 50, DensePlan("hnsw", 334)),     # 60%: widen by 1/0.6, times 4
        (120_000, 200_000, 50, DensePlan("hnsw", 667)),    # the same share of twice the rows: twice the list
        (600_000, 1_000_000, 50, DensePlan("hnsw", 1000)),  # ... capped at pgvector's maximum
        (100_000, 100_000, 5, DensePlan("hnsw", 40)),      # everything visible: ef_search floor
        (1_000_000, 1_000_000, 5, DensePlan("hnsw", 200)),  # everything visible in 10x the rows
        (100_000, 1_000_000, 50, DensePlan("hnsw", 1000)),  # 10%: capped at pgvector's maximum
        (5_000, 50_000, 50, DensePlan("exact")),           # 10% of a small index: scanning 5k rows is cheaper
    ],
)
def test_choose_plan(permitted, total, limit, expected):
    assert choose_plan(permitted, total, limit, DenseTuning(exact_below=10_000)) == expected


def test_hnsw_returns_k_permitted_chunks_with_high_recall(corpus, pg_index_database):
    index = hnsw_index(pg_index_database)
    rng = np.random.default_rng(9)
    recalls = []
    try:
        for query in rng.normal(size=(20, DIM)).astype(np.float32):
            query /= np.linalg.norm(query)
            found = index.dense_candidates(query, access("common"), LIMIT)
            assert len(found) == LIMIT
            assert all(int(c.chunk_id[1:-2]) % 10 != 0 for c in found)  # only 'common' rows
            truth = exact_top(corpus, query, "common", 10)
            recalls.append(len(set(truth) & {c.chunk_id for c in found[:10]}) / 10)
    finally:
        index.close()
    assert index.dense_plans == {"hnsw": 20}
    assert np.mean(recalls) >= 0.9


@pytest.mark.parametrize(
    ("tuning", "row", "group", "plan"),
    [
        pytest.param({}, 7, "rare", "exact", id="a selective filter goes exact"),
        pytest.param({"overfetch": 0.2, "ef_min": 10}, 5, "mid", "hnsw+exact",
                     id="hnsw that comes back short is redone exactly"),
    ],
)
def test_the_plan_fits_the_filter_and_the_result_is_exact(corpus, pg_index_database, tuning, row, group, plan):
    index = hnsw_index(pg_index_database, **tuning)
    query = corpus[row]
    try:
        found = index.dense_candidates(query, access(group), LIMIT)
    finally:
        index.close()
    assert index.dense_plans == {plan: 1}
    assert [c.chunk_id for c in found] == exact_top(corpus, query, group, LIMIT)


def test_each_search_runs_its_own_plan_even_after_many_of_the_other(corpus, pg_index_database):
    index = hnsw_index(pg_index_database, overfetch=0.2, ef_min=10)
    try:
        for i in range(12):  # enough for a driver to prepare the statement and the server to cache a plan
            found = index.dense_candidates(corpus[i], access("rare"), 10)
            assert [c.chunk_id for c in found] == exact_top(corpus, corpus[i], "rare", 10)
            found = index.dense_candidates(corpus[i], access("mid"), 10)
            assert [c.chunk_id for c in found] == exact_top(corpus, corpus[i], "mid", 10)
        with index._reader_pool().connection() as conn:
            assert conn.prepare_threshold is None  # a cached plan would ignore the per-transaction settings
    finally:
        index.close()
    assert index.dense_plans == {"hnsw+exact": 24}  # HNSW really ran, came back short, was redone
