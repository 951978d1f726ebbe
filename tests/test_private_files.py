"""Index and run databases are owner-only: 0600 files in 0700 folders, also when an older, looser one is opened,
and whatever the umask: every folder boundloop makes (index, state, cache, and their missing parents) is 0700."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest

from boundloop.evals.index_cache import cached_index
from boundloop.retrieval.demo import ensure_demo_index
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.retrieval.private_files import private_database
from boundloop.retrieval.sqlite_index import INDEX_FILE, SqliteIndex
from boundloop.runstore.sqlite import SqliteRunStore


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_index_and_its_run_database_are_owner_only(tmp_path, encoder, docs_jsonl):
    old = os.umask(0o022)  # the usual umask, which gives 0644 files and 0755 folders
    try:
        folder = tmp_path / "index"
        index = SqliteIndex(folder, create=True)
        ingest(index, encoder, load_jsonl(docs_jsonl), show_progress=False)
        store = SqliteRunStore(folder / "runs.db")
        store.start("a" * 32, "bob", "question?")
        store.checkpointer.put({"configurable": {"thread_id": "t", "checkpoint_ns": ""}},
                  {"v": 1, "id": "1", "ts": "", "channel_values": {}, "channel_versions": {}, "versions_seen": {}},
                  {}, {})
        files = sorted(p.name for p in folder.iterdir())
        assert {"index.db", "index.db-wal", "runs.db", "runs.db-wal"} <= set(files)
        assert mode(folder) == 0o700
        assert {name: mode(folder / name) for name in files} == dict.fromkeys(files, 0o600)
        index.close()
        store.close()
    finally:
        os.umask(old)


def test_opening_an_older_loose_index_tightens_it(tmp_path, encoder, docs_jsonl):
    folder = tmp_path / "index"
    SqliteIndex(folder, create=True).close()
    folder.chmod(0o755)
    (folder / INDEX_FILE).chmod(0o644)
    SqliteIndex(folder).close()
    assert mode(folder) == 0o700 and mode(folder / INDEX_FILE) == 0o600


@pytest.fixture
def umask_000():
    """The loosest umask: a mode boundloop does not set itself would show as 0777 or 0666."""
    old = os.umask(0)
    yield
    os.umask(old)


def load_documents(path) -> list[Document]:
    return [item for item in load_jsonl(path) if isinstance(item, Document)]


def _made_below(root) -> dict[str, int]:
    return {str(path.relative_to(root)): mode(path) for path in root.rglob("*")}


def test_under_umask_000_every_folder_made_is_0700_and_every_file_0600(tmp_path, umask_000, encoder, docs_jsonl):
    before = mode(tmp_path)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "note.md").write_text("---\nacl: [all-staff]\n---\n# Note\nExpense claims are filed in Concur.\n")
    root = tmp_path / "made"
    index = SqliteIndex(root / "indexes" / "hr" / "index", create=True)
    ingest(index, encoder, load_jsonl(docs_jsonl), show_progress=False)
    store = SqliteRunStore(root / "state" / "boundloop" / "runs.db")
    store.start("a" * 32, "bob", "question?")
    store.failure(sqlite3.DatabaseError("database disk image is malformed"))  # leaves the `.damaged` marker
    ensure_demo_index(encoder, root / "cache" / "boundloop" / "demo-index", corpus)
    cached_index(load_documents(docs_jsonl), encoder, "docs", root=root / "cache" / "boundloop" / "eval-indexes",
                 show_progress=False).close()
    made = _made_below(root)
    index.close()
    store.close()
    folders = {name for name in made if (root / name).is_dir()}
    assert {"indexes", "indexes/hr", "state", "state/boundloop", "cache", "cache/boundloop"} <= folders
    assert {"state/boundloop/runs.db.damaged", "cache/boundloop/demo-index/corpus.sha256"} <= set(made)
    assert made == {name: 0o700 if name in folders else 0o600 for name in made}
    assert mode(tmp_path) == before  # a folder that was there already is not boundloop's to change


def test_a_missing_database_is_created_owner_only_and_an_existing_one_is_not_rewritten(tmp_path, umask_000):
    made = private_database(tmp_path / "state" / "runs.db")
    assert made.stat().st_size == 0 and mode(made) == 0o600 and mode(made.parent) == 0o700
    made.write_bytes(b"kept")
    made.chmod(0o644)
    private_database(made)
    assert made.read_bytes() == b"kept" and mode(made) == 0o600
    assert sorted(p.name for p in made.parent.iterdir()) == ["runs.db"]  # no spare file left beside it


@pytest.mark.slow
def test_the_encoder_is_built_into_an_owner_only_cache(tmp_path, umask_000):
    from boundloop.retrieval.minilm_build import build_int8_onnx
    from boundloop.retrieval.minilm_files import model_dir

    build_int8_onnx(model_dir(), tmp_path / "cache" / "boundloop" / "models" / "int8.onnx")
    assert _made_below(tmp_path) == {"cache": 0o700, "cache/boundloop": 0o700, "cache/boundloop/models": 0o700,
                                     "cache/boundloop/models/int8.onnx": 0o600}
