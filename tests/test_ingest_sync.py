"""Folder sync, stable sources, explicit empty ACLs and honest counts when ingests overlap (both backends)."""

import json
from pathlib import Path

import pytest

from boundloop.retrieval.backend import AclUpdate, Applied, DocumentWrite, StoredDocument, WriteBatch
from boundloop.retrieval.documents import Document
from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.ingest import SyncScope, ingest
from boundloop.retrieval.loaders import load_folder, load_jsonl
from boundloop.retrieval.write_plan import reconcile
from tests.conftest import DOCS, HashEncoder


def write_folder(root: Path, names: list[str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in names:
        (root / f"{name}.md").write_text(f"---\nacl: [all-staff]\n---\n# {name}\n\nAbout {name} and more.\n")
    return root


def sync(backend, folder: Path, remove: bool):
    return ingest(backend, HashEncoder(), load_folder(folder), show_progress=False,
                  scope=SyncScope(str(folder.resolve()), remove=remove))


def test_a_deleted_file_is_stale_until_sync_removes_it(empty_backend, tmp_path):
    folder = write_folder(tmp_path / "wiki", ["a", "b", "c"])
    assert sync(empty_backend, folder, remove=False).added == 3
    (folder / "b.md").unlink()
    report = sync(empty_backend, folder, remove=False)
    assert report.stale_ids == ["b"] and report.deleted == 0 and "b" in empty_backend.stored_documents()
    report = sync(empty_backend, folder, remove=True)
    assert report.deleted == 1 and report.stale_ids == [] and report.unchanged == 2
    assert set(empty_backend.stored_documents()) == {"a", "c"}


def test_sync_keeps_a_document_whose_file_failed_to_load_and_other_folders(empty_backend, tmp_path):
    wiki = write_folder(tmp_path / "wiki", ["a", "b"])
    other = write_folder(tmp_path / "other", ["x"])
    sync(empty_backend, wiki, remove=False)
    sync(empty_backend, other, remove=False)
    (wiki / "b.md").write_text("---\nacl: [oops\n---\nbody\n")  # now unreadable: skipped, not stale
    (wiki / "a.md").unlink()
    report = sync(empty_backend, wiki, remove=True)
    assert report.deleted == 1 and [p.source for p in report.problems] == ["b.md"]
    assert set(empty_backend.stored_documents()) == {"b", "x"}


def test_a_bad_line_that_names_no_document_holds_the_sync_back(empty_backend, tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in DOCS))
    scope = SyncScope(str(path.resolve()), remove=True)
    ingest(empty_backend, HashEncoder(), load_jsonl(path), show_progress=False, scope=scope)
    path.write_text("".join(json.dumps(d) + "\n" for d in DOCS[:4]) + "{broken\n")
    report = ingest(empty_backend, HashEncoder(), load_jsonl(path), show_progress=False, scope=scope)
    assert report.deleted == 0 and report.stale_ids == ["orphan", "reorg"]


def test_the_spelling_of_a_path_never_re_embeds(empty_backend, tmp_path, monkeypatch):
    path = tmp_path / "data" / "docs.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps(d) + "\n" for d in DOCS))
    (tmp_path / "link").symlink_to(path.parent)
    monkeypatch.chdir(tmp_path)
    first = ingest(empty_backend, HashEncoder(), load_jsonl(Path("data/docs.jsonl")), show_progress=False)
    assert first.added == len(DOCS)
    for spelling in [path, Path("./data/../data/docs.jsonl"), Path("link/docs.jsonl")]:
        again = ingest(empty_backend, HashEncoder(), load_jsonl(spelling), show_progress=False)
        assert (again.unchanged, again.chunks_written) == (len(DOCS), 0), spelling


def test_overlapping_ingests_count_a_document_once(empty_backend, tmp_path, monkeypatch):
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in DOCS))
    first = ingest(empty_backend, HashEncoder(), load_jsonl(path), show_progress=False)
    # the second ingest looked at the index before the first one wrote (both saw it empty)
    monkeypatch.setattr(empty_backend, "stored_documents", lambda: {})
    second = ingest(empty_backend, HashEncoder(), load_jsonl(path), show_progress=False)
    assert first.added == len(DOCS)
    assert (second.added, second.updated, second.unchanged, second.chunks_written) == (0, 0, len(DOCS), 0)


def test_explicit_empty_acl_stays_visible_to_nobody(empty_backend, tmp_path):
    path = tmp_path / "docs.jsonl"
    rows = [{"id": "absent", "text": "no acl named"}, {"id": "null", "text": "acl null", "acl": None},
            {"id": "empty", "text": "acl empty on purpose", "acl": []}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    report = ingest(empty_backend, HashEncoder(), load_jsonl(path), default_acl="all-staff", show_progress=False)
    assert report.default_acl_applied == 2 and report.empty_acl_ids == ["empty"] and report.no_acl_ids == []
    acls = {doc_id: stored.acl for doc_id, stored in empty_backend.stored_documents().items()}
    assert acls == {"absent": ("all-staff",), "null": ("all-staff",), "empty": ()}


def test_folder_acls_empty_on_purpose_are_not_defaulted(tmp_path):
    root = tmp_path / "wiki"
    root.mkdir()
    (root / "fm.md").write_text("---\nacl: []\n---\nbody\n")
    (root / "listed.md").write_text("body\n")
    (root / "plain.md").write_text("body\n")
    (root / "acl.yaml").write_text('"listed.md": []\n')
    documents = {d.doc_id: d for d in load_folder(root)}
    assert [(k, d.acl, d.acl_given) for k, d in sorted(documents.items())] == [
        ("fm", (), True), ("listed", (), True), ("plain", (), False)]


def _write(doc_id: str, digest: str, acl=("g",), origin="o") -> DocumentWrite:
    import numpy as np

    return DocumentWrite(Document(doc_id, "t", "x", tuple(acl), origin=origin), digest, [object()] * 2,
                         np.zeros((2, 4)))


@pytest.mark.parametrize(("stored", "write", "expected", "left"), [
    (None, _write("d", "h1"), Applied(added=1, chunks_written=2), (1, 0)),
    (StoredDocument("h0", ("g",), "", "o"), _write("d", "h1"), Applied(updated=1, chunks_written=2), (1, 0)),
    (StoredDocument("h1", ("g",), "", "o"), _write("d", "h1"), Applied(unchanged=1), (0, 0)),
    (StoredDocument("h1", ("x",), "", "o"), _write("d", "h1"), Applied(updated=1), (0, 1)),
    (StoredDocument("h1", ("g",), "", ""), _write("d", "h1"), Applied(unchanged=1), (0, 1)),
])
def test_reconcile_judges_each_write_against_the_index_now(stored, write, expected, left):
    todo, applied = reconcile(WriteBatch([write], []), {"d": stored} if stored else {})
    assert applied == expected and (len(todo.upserts), len(todo.acl_updates)) == left


def test_reconcile_refuses_a_relabel_of_content_that_changed_meanwhile():
    update = AclUpdate("d", ("g",), "new", previous_hash="old")
    with pytest.raises(IndexStoreError, match="changed during the ingest"):
        reconcile(WriteBatch([], [], [update]), {"d": StoredDocument("other", ("g",))})
    todo, applied = reconcile(WriteBatch([], [], [update]), {"d": StoredDocument("old", ("g",))})
    assert todo.acl_updates == [update] and applied == Applied(unchanged=1)


def test_an_index_from_before_origins_is_upgraded_in_place(tmp_path, docs_jsonl):
    import sqlite3

    from boundloop.retrieval.sqlite_index import SqliteIndex

    index = SqliteIndex(tmp_path / "idx", create=True)
    ingest(index, HashEncoder(), load_jsonl(docs_jsonl), show_progress=False)
    index.close()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")  # as schema version 1 wrote it: no origin column
    db.execute("ALTER TABLE documents DROP COLUMN origin")
    db.execute("UPDATE meta SET value='1' WHERE key='schema_version'")
    db.commit()
    db.close()
    index = SqliteIndex(tmp_path / "idx")
    assert index.stored_documents()["expense"].origin == ""
    again = ingest(index, HashEncoder(), load_jsonl(docs_jsonl), show_progress=False)
    assert (again.unchanged, again.chunks_written) == (len(DOCS), 0)  # the origin is recorded, nothing re-embedded
    assert index.stored_documents()["expense"].origin == str(docs_jsonl.resolve())
    index.close()
