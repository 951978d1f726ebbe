import json

import pytest

from retrieval.chunking import chunk_document, split_sentences
from retrieval.documents import Document
from retrieval.ingest import delete, ingest
from retrieval.loaders import load_jsonl
from tests.conftest import DOCS
from tests.postgres_backend import probes


@pytest.fixture
def index(backend):
    """Every index test here runs against both backends (sqlite, postgres); storage is inspected via `probes`."""
    return backend


def test_ingest_counts_and_fail_closed_acl(empty_backend, encoder, docs_jsonl):
    idx = empty_backend
    report = ingest(idx, encoder, load_jsonl(docs_jsonl), show_progress=False)
    assert (report.seen, report.added, report.no_acl) == (len(DOCS), len(DOCS), 1)
    assert idx.stats()["documents"] == len(DOCS)


def test_default_acl_applies_only_to_documents_without_one(empty_backend, encoder, docs_jsonl):
    idx = empty_backend
    report = ingest(idx, encoder, load_jsonl(docs_jsonl), default_acl="all-staff", show_progress=False)
    assert report.no_acl == 0 and report.default_acl_applied == 1
    acls = probes.document_acls(idx)
    assert acls["orphan"] == ["all-staff"]
    assert acls["salaries"] == ["hr"]


def test_reingest_unchanged_does_nothing(index, encoder, docs_jsonl):
    before = probes.generation(index)
    report = ingest(index, encoder, load_jsonl(docs_jsonl), show_progress=False)
    assert report.unchanged == len(DOCS) and report.added == report.updated == report.chunks_written == 0
    after = probes.generation(index)
    assert before == after


def test_changed_document_replaces_its_chunks(index, encoder, tmp_path):
    path = tmp_path / "changed.jsonl"
    changed = {"id": "orgchart", "title": "Org chart", "acl": ["all-staff"],
               "text": "The Head of Finance is Ana Silva."}
    path.write_text(json.dumps(changed) + "\n")
    report = ingest(index, encoder, load_jsonl(path), show_progress=False)
    assert report.updated == 1
    assert probes.chunk_texts(index, "orgchart") == ["The Head of Finance is Ana Silva."]
    assert probes.fulltext_count(index, "priya", "head") == 0  # the old text is gone from the full-text index too


def test_acl_change_is_a_change(index, encoder, tmp_path):
    row = dict(DOCS[3], acl=["hr", "leadership"])
    path = tmp_path / "acl.jsonl"
    path.write_text(json.dumps(row) + "\n")
    assert ingest(index, encoder, load_jsonl(path), show_progress=False).updated == 1


def test_delete_removes_document_chunks_and_fts(index):
    report = delete(index, ["salaries", "nope"])
    assert report.deleted == 1 and [p.location for p in report.problems] == ["nope"]
    assert probes.chunk_count(index, "salaries") == 0
    assert probes.fulltext_count(index, "canary") == 2


def test_crash_mid_batch_leaves_index_as_before(index, encoder, tmp_path, monkeypatch):
    snapshot = probes.documents(index)
    chunks_before = probes.chunk_count(index)
    rows = [{"id": f"new{i}", "title": "t", "text": f"new text {i}", "acl": ["all-staff"]} for i in range(5)]
    rows.append(dict(DOCS[1], text="A changed org chart."))
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    calls = {"n": 0}
    owner, seam = probes.crash_seam(index)  # where one document of the batch is written
    original = getattr(owner, seam)

    def crash_on_third(*args):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("disk on fire")
        return original(*args)

    monkeypatch.setattr(owner, seam, crash_on_third)
    with pytest.raises(RuntimeError):
        ingest(index, encoder, load_jsonl(path), show_progress=False)
    assert calls["n"] == 3
    assert probes.documents(index) == snapshot
    assert probes.chunk_count(index) == chunks_before
    # and a second process sees the same
    assert probes.documents_seen_elsewhere(index) == len(snapshot)


def test_encoder_mismatch_is_refused(index, tmp_path, docs_jsonl):
    from retrieval.errors import IndexStoreError

    class Other:
        name, dimension = "other", 8

        def encode(self, texts):
            import numpy as np

            return np.ones((len(texts), 8), dtype="float32")

    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"id": "x", "text": "hello", "acl": ["a"]}) + "\n")
    with pytest.raises(IndexStoreError, match="built with encoder"):
        ingest(index, Other(), load_jsonl(path), show_progress=False)


def test_chunks_overlap_and_keep_provenance():
    text = " ".join(f"Sentence number {i} talks about topic {i} in some detail here." for i in range(40))
    doc = Document(doc_id="long", title="Long", text=text, acl=("a",), source="long.md")
    chunks = chunk_document(doc, max_words=60, overlap_words=15)
    assert len(chunks) > 3
    assert [c.chunk_id for c in chunks[:2]] == ["long#0", "long#1"]
    assert all(c.doc_id == "long" and c.title == "Long" and c.source == "long.md" for c in chunks)
    first_tail = split_sentences(chunks[0].text)[-1]
    assert chunks[1].text.startswith(first_tail)  # the overlap
    assert all(len(c.text.split()) <= 60 + 15 for c in chunks)


def test_pages_are_chunked_separately():
    doc = Document(doc_id="p", title="P", text="", acl=("a",), pages=("Page one text.", "Page two text."))
    assert [(c.page, c.text) for c in chunk_document(doc)] == [(1, "Page one text."), (2, "Page two text.")]
