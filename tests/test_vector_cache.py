import time

import numpy as np
import pytest

from retrieval.vector_cache import VectorCache, similarities
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
