"""An index in a folder that cannot be written is searched all the same; its runs go to BOUNDLOOP_STATE_DIR."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.errors import StoreUnwritable
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.retrieval.search import hybrid_search
from boundloop.retrieval.sqlite_index import SqliteIndex
from boundloop.runstore.location import open_run_store, state_dir
from tests.conftest import access


@pytest.fixture
def read_only_index(tmp_path, index) -> Iterator[Path]:
    """A copy of the test index in a folder this process cannot write: a read-only mount as root, else mode 0555."""
    index.close()
    source = tmp_path / "index"
    target = tmp_path / "mounted"
    target.mkdir()
    if os.geteuid() == 0:  # root writes through permissions: only a read-only file system stops it
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(target)], capture_output=True)
        if mounted.returncode != 0:
            pytest.skip("needs a read-only mount (as root) or a non-root user")
        shutil.copytree(source, target, dirs_exist_ok=True)
        subprocess.run(["mount", "-o", "remount,ro", str(target)], check=True)
    else:
        shutil.copytree(source, target, dirs_exist_ok=True)
        for path in target.iterdir():
            path.chmod(0o444)
        target.chmod(0o555)
    try:
        yield target
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(target)], check=False)
        else:
            target.chmod(0o755)


def test_a_read_only_index_is_searched(read_only_index, encoder):
    assert not os.access(read_only_index, os.W_OK)
    index = SqliteIndex(read_only_index)
    try:
        assert index.read_only
        hits = hybrid_search(index, encoder, "expense approval", access("all-staff"), k=3)
        assert hits and hits[0].doc_id == "expense"
        with pytest.raises(StoreUnwritable, match="cannot write the index"):
            index.apply(_one_delete(), None)
    finally:
        index.close()
    assert sorted(p.name for p in read_only_index.iterdir()) == ["index.db"]  # no WAL, no lock files left


def _one_delete():
    from boundloop.retrieval.backend import WriteBatch

    return WriteBatch(upserts=[], deletes=["expense"])


def test_its_runs_go_to_the_state_dir(read_only_index, encoder, resolver, tmp_path, monkeypatch):
    monkeypatch.delenv("BOUNDLOOP_STATE_DIR", raising=False)
    with pytest.raises(StoreUnwritable, match="set BOUNDLOOP_STATE_DIR"):
        state_dir(str(read_only_index))
    monkeypatch.setenv("BOUNDLOOP_STATE_DIR", str(tmp_path / "state"))
    store = open_run_store(None, state_dir(str(read_only_index)))
    index = SqliteIndex(read_only_index)
    try:
        runner = LoopRunner(resolver=resolver, backend=index, encoder=encoder, reasoner=OfflineReasoner(),
                            limits=BudgetLimits(), store=store)
        result = runner.ask("Who approves expense claims above EUR 5,000?", "bob")
        assert result.status == "answered" and runner.trace(result.run_id)
        assert (tmp_path / "state" / "runs.db").exists()
    finally:
        store.close()
        index.close()
