"""The real int8 encoder's sessions: one for queries that leaves other threads alone, workers for large inputs."""

import threading
import time

import numpy as np
import pytest

from boundloop.retrieval.embeddings import MAX_WORKERS, SHORT_INPUT, MiniLMOnnxEmbeddings, encode_workers

pytestmark = pytest.mark.slow

TOPICS = ["expense claims need approval from the head of finance", "the lisbon office seating chart by floor",
          "salary bands for level five engineers", "the finance team merges with procurement in march",
          "zebra migration across the serengeti", "how to file a claim in concur"]
# varied lengths and topics, so a batch mix-up or a row out of order changes the vectors
TEXTS = [f"{TOPICS[i % len(TOPICS)]}. " + " ".join(["more detail"] * (i % 13)) for i in range(5 * SHORT_INPUT)]


class RecordingSession:
    """Passes runs on to an ONNX Runtime session and notes which threads ran it."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.threads: set[int] = set()

    def run(self, *args, **kwargs):
        self.threads.add(threading.get_ident())
        return self.inner.run(*args, **kwargs)


@pytest.fixture(scope="module")
def pair():
    return MiniLMOnnxEmbeddings(workers=2), MiniLMOnnxEmbeddings(workers=1)


def test_workers_follow_the_cores():
    assert [encode_workers(n) for n in (None, 1, 2, 64)] == [1, 1, 2, MAX_WORKERS]


def test_query_session_is_single_threaded_without_spinning(real_encoder):
    options = real_encoder._query_session.get_session_options()
    assert (options.intra_op_num_threads, options.inter_op_num_threads) == (1, 1)
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_queries_leave_other_threads_idle(real_encoder, monkeypatch):
    # a two-thread session kept its second thread spinning after each query (~4x the query's own CPU), on the
    # core the keyword search was using
    recording = RecordingSession(real_encoder._query_session)
    monkeypatch.setattr(real_encoder, "_query_session", recording)
    real_encoder.embed_query("warm up")
    time.sleep(0.3)
    process, thread = time.process_time(), time.thread_time()
    for i in range(20):
        real_encoder.embed_query(f"who approves expense claims above {i}")
        time.sleep(0.005)
    mine = time.thread_time() - thread
    others = time.process_time() - process - mine
    assert recording.threads == {threading.get_ident()}
    assert others < 0.2 * mine, f"{others:.3f} s of CPU on other threads beside {mine:.3f} s on this one"


def test_parallel_encode_equals_sequential_in_order(pair):
    parallel, sequential = pair
    recorders = [RecordingSession(s) for s in parallel._sessions]
    parallel._sessions = recorders
    got, expected = parallel.encode(TEXTS), sequential.encode(TEXTS)
    assert all(r.threads for r in recorders) and len(set().union(*(r.threads for r in recorders))) == 2
    assert np.allclose(got, expected, atol=1e-5)
    # and each row is its own text's vector (within int8 batching noise), not a neighbour's
    alone = np.vstack([sequential.encode([t]) for t in TEXTS[:SHORT_INPUT]])
    cosines = got[:SHORT_INPUT] @ alone.T
    assert (np.argmax(cosines, axis=1) == np.arange(SHORT_INPUT)).all() and np.diag(cosines).min() > 0.98


def test_query_session_agrees_with_the_worker_sessions(pair):
    parallel, _ = pair
    query = ["who approves expense claims above EUR 5,000"]
    on_worker = np.zeros((1, parallel.dimension), dtype=np.float32)
    encodings = parallel._tokenizer.encode_batch(query)
    parallel._run(parallel._sessions[0], encodings, [np.array([0])], on_worker)
    assert np.allclose(parallel.encode(query), on_worker, atol=1e-5)


def test_tokens_are_truncated_and_padded_per_batch(pair):
    _, sequential = pair
    long_text = "word " * 1000
    vectors = sequential.encode(["short", long_text])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert len(sequential._tokenizer.encode(long_text).ids) == 256  # MAX_TOKENS, not the file's 128 padding
