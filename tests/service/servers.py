"""Start and stop real server processes for the tests: a free loopback port, a readiness wait, a clean kill."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 180.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_", "BOUNDLOOP_"))}
    env.update(HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", LANGGRAPH_CLI_NO_ANALYTICS="1",
               LANGSMITH_TRACING="false", PYTHONUNBUFFERED="1",
               BOUNDLOOP_RATE_PER_KEY="off", BOUNDLOOP_RATE_PER_ADDRESS="off")  # rate limits: off for tests
    # The server imports this checkout's packages, not an installed copy (an editable install of another checkout
    # would win in a subprocess whose working folder is elsewhere, as `langgraph dev`'s is).
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def _wait_ready(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"server not ready after {STARTUP_TIMEOUT}s:\n{log.read_text()[-4000:]}")


def serve_two_workers(port: int, env: dict[str, str], log: Path) -> subprocess.Popen:
    """`boundloop serve --workers 2` in a session of its own (so a test can kill -9 its master), once it is ready."""
    args = [sys.executable, "-m", "boundloop", "serve", "--port", str(port), "--workers", "2", "--log-level", "warning"]
    with log.open("a") as out:
        proc = subprocess.Popen(args, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    _wait_ready(f"http://127.0.0.1:{port}/healthz", proc, log)
    return proc


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)  # the server's own process group: workers and reloaders too
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@contextmanager
def running(args: list[str], env: dict[str, str], ready_path: str, port: int, log: Path,
            cwd: Path = REPO) -> Iterator[str]:
    """Run `python <args>` in its own process group until the block ends; yields the base URL."""
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, *args], cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base + ready_path, proc, log)
        yield base
    finally:
        _stop(proc)
