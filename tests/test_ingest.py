import json

import pytest

from boundloop.domain.sentences import split_sentences
from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import delete, ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.retrieval.search import hybrid_search
from tests.conftest import DOCS, HashEncoder, access
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


class CountingEncoder(HashEncoder):
    """The test encoder (same name, same vectors), counting the texts it is asked to encode."""

    def __init__(self) -> None:
        self.texts = 0

    def encode(self, texts):
        self.texts += len(texts)
        return super().encode(texts)


def visible(index, groups, query="salary bands engineers"):
    return {mode: {h.doc_id for h in hybrid_search(index, HashEncoder(), query, access(*groups), k=50, mode=mode)}
            for mode in ("keyword", "vector", "hybrid")}


def write_jsonl(tmp_path, *rows):
    path = tmp_path / "docs.jsonl"  # where the `index` fixture's corpus came from: the documents' source is the same
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return load_jsonl(path)


def test_acl_only_change_relabels_without_encoding(index, tmp_path):
    salaries = {"hr": {"salaries"}, "leadership": set()}
    assert all(salaries["hr"] <= docs for docs in visible(index, ["hr"]).values())  # and the caches are warm
    counting = CountingEncoder()
    report = ingest(index, counting, write_jsonl(tmp_path, dict(DOCS[3], acl=["leadership"])), show_progress=False)
    assert counting.texts == 0 and report.updated == 1 and report.chunks_written == 0
    for mode, docs in visible(index, ["hr"]).items():
        assert "salaries" not in docs, f"the old group still finds it by {mode}"
    for mode, docs in visible(index, ["leadership"]).items():
        assert "salaries" in docs, f"the new group does not find it by {mode}"
    assert not index.load_chunks(["salaries#0"], access("hr"))
    assert index.load_chunks(["salaries#0"], access("leadership"))["salaries#0"].acl == {"leadership"}
    assert probes.document_acls(index)["salaries"] == ["leadership"]
    assert probes.fulltext_count(index, "salary", "bands") == 1  # re-labelled in the full-text index, not doubled
    again = ingest(index, counting, write_jsonl(tmp_path, dict(DOCS[3], acl=["leadership"])), show_progress=False)
    assert again.unchanged == 1 and counting.texts == 0


def test_acl_update_is_all_or_nothing_with_its_batch(index, tmp_path, monkeypatch):
    owner, seam = probes.crash_seam(index)

    def crash(*args):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(owner, seam, crash)
    rows = [dict(DOCS[3], acl=["leadership"]), {"id": "new", "text": "new text", "acl": ["hr"]}]
    with pytest.raises(RuntimeError):
        ingest(index, HashEncoder(), write_jsonl(tmp_path, *rows), show_progress=False)
    assert probes.document_acls(index)["salaries"] == ["hr"]
    assert all("salaries" in docs for docs in visible(index, ["hr"]).values())


def test_index_from_before_acl_only_updates_is_not_re_encoded(index, tmp_path, docs_jsonl):
    from boundloop.retrieval.chunking import CHUNKER_VERSION

    salt = f"{CHUNKER_VERSION}|{HashEncoder.name}"
    for doc in list(load_jsonl(docs_jsonl))[:4]:  # fingerprints as the older version wrote them: content and ACL
        probes.set_content_hash(index, doc.doc_id, doc.legacy_content_hash(salt))
    counting = CountingEncoder()
    rows = [*DOCS[:3], dict(DOCS[3], acl=["leadership"])]
    report = ingest(index, counting, write_jsonl(tmp_path, *rows), show_progress=False)
    assert counting.texts == 0 and (report.unchanged, report.updated) == (3, 1)
    assert "salaries" in visible(index, ["leadership"])["hybrid"]
    changed = ingest(index, counting, write_jsonl(tmp_path, dict(DOCS[1], text="A new org chart.")),
                     show_progress=False)
    assert changed.updated == 1 and counting.texts == 1  # a real content change is still seen


def test_acl_is_not_part_of_the_content_hash():
    a = Document(doc_id="d", title="T", text="body", acl=("hr",))
    b = Document(doc_id="d", title="T", text="body", acl=("leadership",))
    assert a.content_hash("s") == b.content_hash("s") != a.legacy_content_hash("s") != b.legacy_content_hash("s")
    assert a.content_hash("s") != Document(doc_id="d", title="T", text="body!", acl=("hr",)).content_hash("s")


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
    from boundloop.retrieval.errors import IndexStoreError

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


def test_a_numbered_step_keeps_its_number_with_its_sentence():
    from boundloop.domain.sentences import chunk_sentences

    assert chunk_sentences("1. Ask your manager. Then wait.\n2) Open a ticket.\nIn 2024. We grew.") == [
        "1. Ask your manager.", "Then wait.", "2) Open a ticket.", "In 2024.", "We grew."]


def test_an_abbreviation_that_goes_on_does_not_end_a_sentence():
    text = ("Unlike John C. Calhoun, he left. The U.S. Army agreed. Ask Dr. Lee in St. Louis, ext. 4412. "
            "It ended with World War I. Peace came. AT&T. Then R&B. Last.")
    assert split_sentences(text) == [
        "Unlike John C. Calhoun, he left.", "The U.S. Army agreed.", "Ask Dr. Lee in St. Louis, ext. 4412.",
        "It ended with World War I.", "Peace came.", "AT&T.", "Then R&B.", "Last."]
