"""kill -9 on `boundloop serve --workers 2`: the workers leave with their master, a restart works, and the runs a
crash cut short are marked interrupted, not left running forever."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import httpx
import pytest

from tests.llm.openai_stub import Reply, StubServer
from tests.service.keys import auth
from tests.service.servers import free_port, serve_two_workers, server_env

pytestmark = pytest.mark.slow
QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.2)
    return {p for p in pids if _alive(p)}


def test_kill_9_of_the_master_then_of_everything(tmp_path, real_index_dir, keyed_directory):
    index = tmp_path / "index"
    shutil.copytree(real_index_dir, index)
    env = server_env(BOUNDLOOP_INDEX=str(index), BOUNDLOOP_DIRECTORY=str(keyed_directory))
    port, log = free_port(), tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    master = serve_two_workers(port, env, log)
    group = master.pid
    try:
        workers = _children(master.pid)
        assert httpx.post(base + "/ask", json=QUESTION, headers=auth("bob"), timeout=60).status_code == 200
        os.kill(master.pid, signal.SIGKILL)  # the master only: its workers are orphans now
        master.wait(timeout=10)
        assert workers and not _wait_gone(workers, 20), "workers outlived their master"

        # the port is free again; this time the model hangs, so runs are surely in flight when everything dies
        with StubServer(responder=lambda body: Reply("hang")) as model:
            stubbed = {**env, "BOUNDLOOP_MODEL": "openai:stub", "BOUNDLOOP_OPENAI_BASE_URL": model.url,
                       "OPENAI_API_KEY": "not-used"}
            master = serve_two_workers(port, stubbed, log)
            group = master.pid
            workers = _children(master.pid)
            with ThreadPoolExecutor(4) as pool:
                asks = [pool.submit(httpx.post, base + "/ask", json=QUESTION, headers=auth("bob"), timeout=60)
                        for _ in range(4)]
                deadline = time.monotonic() + 30
                while len(model.seen) < 4 and time.monotonic() < deadline:
                    time.sleep(0.1)
                os.killpg(group, signal.SIGKILL)  # everything, as a power cut or the OOM killer would
                for ask in asks:
                    try:
                        ask.result()
                    except httpx.HTTPError:
                        pass
        master.wait(timeout=10)
        assert not _wait_gone(workers, 10)
        with closing(sqlite3.connect(index / "runs.db")) as db:
            left = db.execute("SELECT count(*) FROM boundloop_runs WHERE status IS NULL").fetchone()[0]
        assert left == 4  # the crash left the runs in flight unfinished

        master = serve_two_workers(port, env, log)  # the next start marks them
        group = master.pid
        assert httpx.get(base + "/healthz").json()["status"] == "ok"
        with closing(sqlite3.connect(index / "runs.db")) as db:
            counts = dict(db.execute("SELECT coalesce(status, 'running'), count(*) FROM boundloop_runs "
                                     "GROUP BY 1").fetchall())
        assert "running" not in counts and counts["interrupted"] == left
    finally:
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            pass
