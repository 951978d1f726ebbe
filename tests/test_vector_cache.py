import time

import numpy as np
import pytest

from boundloop.retrieval.vector_cache import VectorCache, similarities
from tests.conftest import access


def other_threads_cpu(fn, repeat: int = 20) -> tuple[float, float]:
    """(CPU seconds of this thread, CPU seconds of every other thread of the process) while `fn` runs."""
    fn()
    process, thread = time.process_time(), time.thread_time()
    for _ in range(repeat):
        fn()
    mine = time.thread_time() - thread
    return mine, time.process_time() - process - mine


def test_similarities_equal_the_matrix_product():
    rng = np.random.default_rng(1)
    matrix = rng.standard_normal((1000, 384), dtype=np.float32)
    vector = rng.standard_normal(384).astype(np.float64)  # a query vector of another dtype is cast, not rejected
    assert np.allclose(similarities(matrix, vector), matrix @ vector.astype(np.float32), atol=1e-4)


def test_similarities_run_on_the_calling_thread_only():
    # the hybrid search's keyword query runs beside this product: BLAS helper threads would compete with it
    rng = np.random.default_rng(2)
    matrix = rng.standard_normal((50_000, 384), dtype=np.float32)
    vector = rng.standard_normal(384, dtype=np.float32)
    time.sleep(0.5)  # OpenBLAS workers spin for a while after a product: let any earlier one's settle
    mine, helpers = other_threads_cpu(lambda: similarities(matrix, vector))
    _, blas_helpers = other_threads_cpu(lambda: matrix @ vector)  # measured second, for that same reason
    if blas_helpers < 0.01:
        pytest.skip("BLAS is single-threaded on this machine: nothing to tell apart")
    assert helpers < 0.25 * mine, f"{helpers:.3f} s of CPU on other threads beside {mine:.3f} s on this one"


def test_search_ranks_permitted_rows_by_similarity():
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((6, 8)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    cache = VectorCache("1", [f"c{i}" for i in range(6)], matrix,
                        {"a": np.array([0, 2, 4]), "b": np.array([1, 3, 5])})
    query = matrix[2] + 0.1 * matrix[4]
    found = cache.search(query, access("a"), limit=2)
    assert [c.chunk_id for c in found] == ["c2", "c4"]
    assert found[0].score == pytest.approx(float(matrix[2] @ query), abs=1e-5)


def filled_index(tmp_path, chunks: int, dimension: int = 384):
    from boundloop.retrieval.backend import DocumentWrite, WriteBatch
    from boundloop.retrieval.documents import Chunk, Document
    from boundloop.retrieval.sqlite_index import SqliteIndex

    index = SqliteIndex(tmp_path / "index", create=True)
    rng = np.random.default_rng(4)
    writes = []
    for d in range(chunks // 100):
        doc = Document(doc_id=f"d{d}", title="t", text="x", acl=("a",) if d % 2 else ("a", "b"))
        rows = [Chunk(f"d{d}#{i}", f"d{d}", i, "t", f"text {i}", "", None) for i in range(100)]
        writes.append(DocumentWrite(doc, f"h{d}", rows, rng.standard_normal((100, dimension), dtype=np.float32)))
    index.apply(WriteBatch(upserts=writes, deletes=[]), "test-encoder")
    return index, np.vstack([w.vectors for w in writes])


def test_load_reads_every_vector_and_group(tmp_path):
    index, vectors = filled_index(tmp_path, chunks=300)
    cache = VectorCache.load(index._meta_conn, "1", 384)
    assert cache.chunk_ids[:2] == ["d0#0", "d0#1"] and len(cache.chunk_ids) == 300
    assert np.array_equal(cache.matrix, vectors)
    assert len(cache.group_rows["a"]) == 300 and len(cache.group_rows["b"]) == 200
    assert not index._meta_conn.in_transaction  # the read snapshot is released
    index.close()


def test_load_peaks_near_one_matrix(tmp_path):
    import tracemalloc

    index, vectors = filled_index(tmp_path, chunks=4000)
    tracemalloc.start()
    try:
        cache = VectorCache.load(index._meta_conn, "1", 384)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1.5 * cache.matrix.nbytes, f"peak {peak / 1e6:.1f} MB for a {cache.matrix.nbytes / 1e6:.1f} MB matrix"
    index.close()


def test_load_refuses_a_vector_of_the_wrong_size(tmp_path):
    from boundloop.retrieval.errors import IndexStoreError

    index, _ = filled_index(tmp_path, chunks=100, dimension=8)
    with pytest.raises(IndexStoreError, match="32-byte vector, not 64"):
        VectorCache.load(index._meta_conn, "1", 16)
    assert not index._meta_conn.in_transaction
    index.close()
