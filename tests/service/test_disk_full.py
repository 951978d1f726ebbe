"""A full disk, made with a file-size limit (RLIMIT_FSIZE) on the process that writes: 503s and one clear line, never
a 500 or a half-written file."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing

import httpx
import pytest

from tests.service.keys import auth
from tests.service.servers import REPO, free_port, running, server_env

pytestmark = pytest.mark.slow
LIMITED = """
import resource, runpy, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing us
limit = int(sys.argv.pop(1))
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def _limited(limit: int, module: str, *args: str) -> list[str]:
    """`python -m module args` with every file it writes held to `limit` bytes."""
    return ["-c", LIMITED, str(limit), module, *args]


def test_a_full_disk_answers_503_and_healthz_says_degraded(tmp_path, real_index_dir, keyed_directory):
    index = tmp_path / "index"
    shutil.copytree(real_index_dir, index)
    env = server_env(BOUNDLOOP_INDEX=str(index), BOUNDLOOP_DIRECTORY=str(keyed_directory))
    port = free_port()
    # Room in the WAL for the migrations and the first run, not for forty runs.
    args = _limited(240_000, "uvicorn", "--factory", "boundloop.service.app:create_app", "--port", str(port),
                    "--log-level", "warning")
    statuses = []
    with running(args, env, "/healthz", port, tmp_path / "server.log") as base:
        for _ in range(40):
            response = httpx.post(base + "/ask", json={"question": "Who approves expense claims above EUR 5,000?"},
                                  headers=auth("bob"), timeout=60)
            statuses.append(response.status_code)
            if response.status_code == 503:
                assert response.json() == {
                    "detail": "the service is unavailable: it cannot write its data (its disk is full); try again "
                              "later"}
                break
        health = httpx.get(base + "/healthz")
    assert 500 not in statuses and statuses[0] == 200 and statuses[-1] == 503, statuses
    assert health.status_code == 503
    assert health.json() == {"status": "degraded", "checkpoints": "sqlite", "reasons": ["the run store cannot write"]}
    with closing(sqlite3.connect(index / "runs.db")) as db:  # what was written is whole
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finished = db.execute("SELECT count(*) FROM boundloop_runs WHERE status='answered'").fetchone()[0]
    assert finished == statuses.count(200)


def test_ingest_on_a_full_disk_names_the_cause_and_writes_nothing(tmp_path, real_index_dir, keyed_directory):
    index = tmp_path / "index"
    shutil.copytree(real_index_dir, index)
    more = tmp_path / "more.jsonl"
    more.write_text("\n".join(json.dumps({"id": f"note-{n}", "title": f"Note {n}", "acl": ["all-staff"],
                                          "text": f"Note {n} about the quarterly offsite. " * 120})
                              for n in range(40)) + "\n")
    with closing(sqlite3.connect(index / "index.db")) as db:
        documents = db.execute("SELECT count(*) FROM documents").fetchone()[0]
    env = server_env(BOUNDLOOP_DIRECTORY=str(keyed_directory))
    result = subprocess.run([sys.executable, *_limited(200_000, "boundloop", "ingest", str(more), "--index",
                                                        str(index))],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr[-2000:]
    errors = [line for line in result.stderr.splitlines() if line.startswith("boundloop:")]  # past the progress bar
    assert len(errors) == 1 and errors[0].startswith("boundloop: error: cannot write the index ")
    assert "disk is full" in errors[0] and "Traceback" not in result.stderr
    with closing(sqlite3.connect(index / "index.db")) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM documents").fetchone()[0] == documents
