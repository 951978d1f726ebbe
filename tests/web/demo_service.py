"""`boundloop serve` over the demo corpus as a person starts it, on a free loopback port: tests, bench, screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.service.servers import free_port, running, server_env

# The demo keys are `demo-key-<user>`, published: serving them needs `--demo`.
SERVE_ARGS = ["-m", "boundloop", "serve", "--demo", "--log-level", "warning"]


@contextmanager
def demo_service(log: Path, cache: str | None = None) -> Iterator[str]:
    """Yields the page's URL (ending in `/`); `cache` is the BOUNDLOOP_CACHE holding the demo index and encoder."""
    port = free_port()
    env = server_env(**({"BOUNDLOOP_CACHE": cache} if cache else {}))
    log.parent.mkdir(parents=True, exist_ok=True)
    with running([*SERVE_ARGS, "--port", str(port)], env, "/healthz", port, log) as base:
        yield base + "/"
