"""Index and run databases are owner-only: 0600 files in 0700 folders, also when an older, looser one is opened."""

from __future__ import annotations

import os
import stat

from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_jsonl
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
