"""A database open in this process keeps SQLite's locks: nothing boundloop does opens it behind SQLite's back.

Closing any descriptor of a file drops all this process's POSIX locks on it; another process's last connection then
thinks it is alone, checkpoints and deletes the WAL still in use here, and what is written here afterwards is lost.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import uuid
from contextlib import closing
from pathlib import Path

from boundloop.cli.main import main
from boundloop.retrieval.private_files import private_database
from boundloop.retrieval.sqlite_index import SqliteIndex
from boundloop.runstore.sqlite import SqliteRunStore


def _elsewhere(code: str, path: Path) -> subprocess.CompletedProcess[str]:
    """Run `code` with `path` bound to `db` in another process (POSIX locks are per process)."""
    return subprocess.run([sys.executable, "-c", f"import sqlite3; db = {str(path)!r}\n{code}"],
                          capture_output=True, text=True, timeout=60)


def test_a_write_lock_held_here_survives_private_database(tmp_path):
    path = tmp_path / "plain.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("CREATE TABLE t (x)")
        db.execute("BEGIN IMMEDIATE")  # the RESERVED lock on the file, held by this process
        private_database(path)
        tried = _elsewhere("sqlite3.connect(db, timeout=0, isolation_level=None).execute('BEGIN IMMEDIATE')", path)
        db.execute("ROLLBACK")
    assert "database is locked" in tried.stderr


def test_runs_written_after_another_process_read_the_store_are_kept(tmp_path):
    path = tmp_path / "runs.db"
    store = SqliteRunStore(path)  # two connections: the registry's, and the checkpointer's opened after it
    before = uuid.uuid4().hex
    store.start(before, "bob", "first question?")
    read = _elsewhere("c = sqlite3.connect(db); c.execute('SELECT count(*) FROM boundloop_runs').fetchall(); "
                      "c.close()", path)  # as `boundloop trace` or `stats` does, then exits
    assert read.returncode == 0, read.stderr
    assert Path(f"{path}-wal").exists()  # its close must not have taken the WAL still in use here
    after = uuid.uuid4().hex
    store.start(after, "bob", "second question?")
    count = _elsewhere(f"print(sqlite3.connect(db).execute('SELECT count(*) FROM boundloop_runs "
                       f"WHERE run_id IN (\"{before}\", \"{after}\")').fetchone()[0])", path)
    store.close()
    assert count.stdout.strip() == "2"


def test_an_index_opened_twice_keeps_its_wal(tmp_path, index):
    folder = tmp_path / "index"
    again = SqliteIndex(folder)
    read = _elsewhere("c = sqlite3.connect(db); c.execute('SELECT count(*) FROM chunks').fetchall(); c.close()",
                      folder / "index.db")
    assert read.returncode == 0, read.stderr
    assert (folder / "index.db-wal").exists()
    again.close()


def test_doctor_reads_without_taking_the_wal(tmp_path, monkeypatch, capsys):
    """A server killed with writes still in the WAL: `doctor` looks, and leaves the WAL for the next open."""
    path = tmp_path / "runs.db"
    wrote = _elsewhere("import os; c = sqlite3.connect(db); c.execute('PRAGMA journal_mode=WAL'); "
                       "c.execute('CREATE TABLE boundloop_runs (run_id)'); "
                       "c.execute(\"INSERT INTO boundloop_runs VALUES ('x')\"); c.commit(); os._exit(0)", path)
    assert wrote.returncode == 0, wrote.stderr
    wal = Path(f"{path}-wal")
    held, file = wal.read_bytes(), path.read_bytes()
    assert held
    monkeypatch.setenv("BOUNDLOOP_STATE_DIR", str(tmp_path))
    monkeypatch.delenv("BOUNDLOOP_CHECKPOINT_URL", raising=False)
    main(["doctor", "--index", str(tmp_path / "no-index")])
    assert f"run store {path}: integrity ok" in capsys.readouterr().out
    assert wal.read_bytes() == held and path.read_bytes() == file  # nothing checkpointed, nothing deleted
