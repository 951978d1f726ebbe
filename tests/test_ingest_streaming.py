"""Ingest streams: documents are embedded and written a batch at a time inside one transaction (issue 31), so memory
holds one batch, and the index still changes all at once or not at all, on both backends."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator

import pytest

from boundloop.retrieval import ingest as ingest_module
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.errors import IngestError
from boundloop.retrieval.ingest import ingest, refusing_problems
from tests.conftest import HashEncoder
from tests.postgres_backend import probes

WORDS = "harbour ledger invoice parking lease badge salary travel audit quarter budget review".split()


def documents(count: int, words: int = 60, prefix: str = "new") -> Iterator[Document]:
    """Documents made as they are asked for: the test holds none of them."""
    for i in range(count):
        text = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(words)) + f". Marker {prefix}{i}."
        yield Document(doc_id=f"{prefix}{i}", title=f"Note {i}", text=text, acl=("all-staff",))


class WatchingEncoder(HashEncoder):
    """The test encoder; calls `watch(call number)` before each encode."""

    def __init__(self, watch) -> None:
        self.calls = 0
        self.watch = watch

    def encode(self, texts):
        self.calls += 1
        self.watch(self.calls)
        return super().encode(texts)


@pytest.fixture
def small_batches(monkeypatch):
    monkeypatch.setattr(ingest_module, "BATCH_CHUNKS", 4)
    monkeypatch.setattr(ingest_module, "EMBED_STEP", 4)


def test_batches_are_written_as_they_are_embedded_and_committed_once(backend, small_batches, monkeypatch):
    events: list[str] = []
    owner, seam = probes.crash_seam(backend)
    original = getattr(owner, seam)

    def written(*args):
        events.append("write")
        return original(*args)

    monkeypatch.setattr(owner, seam, written)
    before = probes.documents_seen_elsewhere(backend)
    generation = probes.generation(backend)
    seen_meanwhile: list[int] = []

    def watch(call: int) -> None:
        events.append("encode")
        seen_meanwhile.append(probes.documents_seen_elsewhere(backend))

    report = ingest(backend, WatchingEncoder(watch), documents(12), show_progress=False)
    assert report.added == 12 and report.chunks_written == 12
    assert events[:4] == ["encode", "write", "write", "write"]  # not every encode before the first write
    assert events.count("encode") == 3 and events.count("write") == 12
    assert set(seen_meanwhile) == {before}  # another connection sees nothing until the commit
    assert probes.documents_seen_elsewhere(backend) == before + 12
    assert int(probes.generation(backend)) == int(generation) + 1  # one commit: one new generation


def test_a_failure_in_a_later_batch_rolls_back_the_earlier_ones(backend, small_batches):
    snapshot, chunks, generation = probes.documents(backend), probes.chunk_count(backend), probes.generation(backend)

    def watch(call: int) -> None:
        if call == 3:  # two batches are already written inside the open transaction
            raise RuntimeError("encoder crashed")

    with pytest.raises(RuntimeError, match="encoder crashed"):
        ingest(backend, WatchingEncoder(watch), documents(12), show_progress=False)
    assert probes.documents(backend) == snapshot and probes.chunk_count(backend) == chunks
    assert probes.generation(backend) == generation and probes.documents_seen_elsewhere(backend) == len(snapshot)
    again = ingest(backend, HashEncoder(), documents(12), show_progress=False)  # and the index still takes writes
    assert again.added == 12


def test_a_bad_line_met_while_streaming_changes_nothing(backend, small_batches):
    snapshot = probes.documents(backend)

    def items():
        yield from documents(9)
        yield LoadProblem("docs.jsonl:10", "broken JSON: Expecting value (column 1)")
        yield from documents(3, prefix="late")

    with pytest.raises(IngestError, match="docs.jsonl:10: broken JSON.*nothing was written"):
        ingest(backend, HashEncoder(), refusing_problems(items()), show_progress=False)
    assert probes.documents(backend) == snapshot


def test_memory_holds_one_batch_not_the_input(tmp_path, monkeypatch):
    """6 MB of documents stream through with a small fraction of that traced at the peak."""
    from boundloop.retrieval.sqlite_index import SqliteIndex

    monkeypatch.setattr(ingest_module, "BATCH_CHUNKS", 64)
    index = SqliteIndex(tmp_path / "index", create=True)
    count, words = 1_500, 600  # ~4 KB of text each
    try:
        tracemalloc.start()
        report = ingest(index, HashEncoder(), documents(count, words), show_progress=False)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    finally:
        index.close()
    text_bytes = sum(len(d.text) for d in documents(count, words))
    assert report.added == count and text_bytes > 6_000_000
    assert peak < text_bytes / 3, f"peak {peak:,} bytes for {text_bytes:,} bytes of text"
