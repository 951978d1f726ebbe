"""`boundloop serve` and the CLI on one index and one runs.db: no finished run is lost, even to kill -9.

While the server answers a steady stream of asks, the CLI reads the same store (`trace`, `stats`, `doctor`), prunes
it, asks, and ingests into the index. Every run that finished, over HTTP or on the CLI, must be in runs.db after the
server is killed, and again after a restarted server is stopped cleanly; the server must answer from what the CLI
ingested.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

import httpx
import pytest

from tests.service.keys import auth
from tests.service.servers import REPO, _stop, free_port, serve_two_workers, server_env

pytestmark = pytest.mark.slow
QUESTIONS = ["Who approves expense claims above EUR 5,000?", "Where does Priya Raman sit?",
             "Who is the Head of People?", "Where are expense claims filed?"]
NEW_DOCUMENT = {"id": "cafeteria", "title": "Lisbon cafeteria hours", "acl": ["all-staff"],
                "text": "The Lisbon office cafeteria opens at 07:30 and closes at 15:00 on weekdays."}


def _cli(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "boundloop", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"boundloop {' '.join(args)}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done.stdout


def _ask(base: str, question: str) -> dict:
    response = httpx.post(base + "/ask", json={"question": question}, headers=auth("bob"), timeout=120)
    assert response.status_code == 200, response.text
    return response.json()


class Asker(threading.Thread):
    """Asks over HTTP without pause until stopped, so the server writes runs before and after each CLI command."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.base, self.run_ids, self.failure = base, [], None
        self.halt = threading.Event()

    def run(self) -> None:
        try:
            while not self.halt.is_set():
                self.run_ids.append(_ask(self.base, QUESTIONS[len(self.run_ids) % len(QUESTIONS)])["run_id"])
        except BaseException as exc:  # noqa: BLE001 - reported by the test's thread
            self.failure = exc

    def stop(self) -> list[str]:
        self.halt.set()
        self.join(timeout=180)
        assert self.failure is None, self.failure
        return self.run_ids


def _finished(runs: Path, run_ids: list[str]) -> dict[str, str | None]:
    """The status of each of `run_ids` in the file as another process would now read it."""
    with closing(sqlite3.connect(f"file:{runs}?mode=ro", uri=True)) as db:
        marks = ",".join("?" * len(run_ids))
        found = dict(db.execute(f"SELECT run_id, status FROM boundloop_runs WHERE run_id IN ({marks})", run_ids))
    return {run_id: found.get(run_id, "missing") for run_id in run_ids}


def test_runs_of_the_server_and_the_cli_all_survive_kill_9(tmp_path, real_index_dir, keyed_directory):
    index = tmp_path / "index"
    shutil.copytree(real_index_dir, index)
    new = tmp_path / "new.jsonl"
    new.write_text(json.dumps(NEW_DOCUMENT) + "\n")
    env = server_env(BOUNDLOOP_INDEX=str(index), BOUNDLOOP_DIRECTORY=str(keyed_directory))
    port, log = free_port(), tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    server = serve_two_workers(port, env, log)
    try:
        first = _ask(base, QUESTIONS[0])["run_id"]
        asker = Asker(base)
        asker.start()
        cli_runs = []
        _cli(env, "trace", first)
        _cli(env, "stats")
        cli_runs.append(json.loads(_cli(env, "ask", QUESTIONS[1], "--user", "bob", "--json"))["run_id"])
        _cli(env, "runs", "prune")
        assert "FAIL" not in _cli(env, "doctor")
        _cli(env, "ingest", str(new))  # into the index the server searches
        cli_runs.append(json.loads(_cli(env, "ask", QUESTIONS[2], "--user", "bob", "--json"))["run_id"])
        _cli(env, "stats")
        http_runs = [first, *asker.stop()]
        cafeteria = _ask(base, "When does the Lisbon cafeteria open?")
        http_runs += [cafeteria["run_id"], *(_ask(base, q)["run_id"] for q in QUESTIONS)]
        assert "cafeteria" in {c["doc_id"] for c in cafeteria["citations"]}, cafeteria["answer"]
        assert len(http_runs) > len(QUESTIONS) * 2
        os.killpg(server.pid, signal.SIGKILL)  # everything, as a power cut or the OOM killer would
        server.wait(timeout=10)
    finally:
        _stop(server)

    statuses = _finished(index / "runs.db", http_runs + cli_runs)
    assert {run_id: status for run_id, status in statuses.items() if status in (None, "missing")} == {}
    assert "FAIL" not in _cli(env, "doctor")
    with closing(sqlite3.connect(f"file:{index / 'index.db'}?mode=ro", uri=True)) as db:
        assert db.execute("SELECT count(*) FROM documents WHERE doc_id='cafeteria'").fetchone()[0] == 1

    # a restarted server, the CLI beside it, then a clean stop: its last checkpoint must not overwrite the CLI's runs
    server = serve_two_workers(port, env, log)
    try:
        http_runs.append(_ask(base, QUESTIONS[3])["run_id"])
        _cli(env, "trace", http_runs[-1])
        cli_runs.append(json.loads(_cli(env, "ask", QUESTIONS[0], "--user", "bob", "--json"))["run_id"])
        http_runs.append(_ask(base, QUESTIONS[1])["run_id"])
    finally:
        _stop(server)
    statuses = _finished(index / "runs.db", http_runs + cli_runs)
    assert {run_id: status for run_id, status in statuses.items() if status in (None, "missing")} == {}
