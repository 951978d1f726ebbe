"""A real `redis-server` for the tests and benchmarks: a free loopback port, no persistence, a clean stop."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from tests.service.servers import free_port

BINARY = shutil.which("redis-server") or "/usr/bin/redis-server"
MISSING = "redis-server is not installed (scripts/ci-services.sh installs it: apt-get install redis-server)"


def available() -> bool:
    return Path(BINARY).is_file()


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """`redis-server` on a free port until the block ends; yields its `redis://` URL."""
    port = free_port()
    proc = subprocess.Popen([BINARY, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(url, socket_timeout=1).ping()
                break
            except redis.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start on port {port}") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
