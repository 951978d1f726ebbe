"""`boundloop serve` checks its settings before it starts workers: one clear line and exit code 2 for a mistake."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.service.servers import REPO, server_env


def serve(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boundloop", "serve", "--port", "1", *args], cwd=REPO,
                          env=server_env(**env), capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, env, message", [
    ((), {}, "no directory of users and API keys: pass --directory FILE or set BOUNDLOOP_DIRECTORY"),
    (("--directory", "demo/directory.yaml"), {},
     "accepts the published demo API keys (demo-key-<user>) for alice, bob, carol"),
    ((), {"BOUNDLOOP_DIRECTORY": "demo/directory.yaml"}, "or serve the demo with --demo"),
    (("--demo", "--directory", "demo/directory.yaml"), {}, "--demo serves the bundled demo corpus"),
    (("--demo",), {"BOUNDLOOP_INDEX": "/nowhere"}, "--demo serves the bundled demo corpus"),
    (("--demo",), {"BOUNDLOOP_JWT_SECRET": "too-short"}, "BOUNDLOOP_JWT_SECRET must be at least 32 bytes"),
    (("--demo",), {"BOUNDLOOP_RATE_PER_KEY": "lots"}, "BOUNDLOOP_RATE_PER_KEY='lots' must be a rate such as"),
    (("--demo",), {"BOUNDLOOP_JWT_MAX_TTL": "forever"}, "BOUNDLOOP_JWT_MAX_TTL='forever' must be a duration"),
    # each was "internal error" or a traceback in every worker before the settings were checked up front
    (("--demo",), {"BOUNDLOOP_MAX_BODY_BYTES": "0"}, "BOUNDLOOP_MAX_BODY_BYTES='0' must be a whole number"),
    (("--demo",), {"BOUNDLOOP_MAX_INGEST_BYTES": "-1"}, "BOUNDLOOP_MAX_INGEST_BYTES='-1' must be a whole number"),
    (("--demo",), {"BOUNDLOOP_RATE_PER_ADDRESS": "5/0s"}, "BOUNDLOOP_RATE_PER_ADDRESS='5/0s' must be a rate"),
    (("--demo",), {"BOUNDLOOP_MAX_HOPS": "abc"}, "BOUNDLOOP_MAX_HOPS='abc' must be a whole number"),
    (("--demo",), {"BOUNDLOOP_RUNS_KEEP": "0"}, "BOUNDLOOP_RUNS_KEEP='0' must be a whole number"),
    (("--demo",), {"BOUNDLOOP_EMBEDDINGS": "foo"}, "BOUNDLOOP_EMBEDDINGS='foo' must be one of minilm"),
    (("--demo",), {"BOUNDLOOP_TRUSTED_PROXIES": "proxy.local"}, "BOUNDLOOP_TRUSTED_PROXIES='proxy.local' must be"),
    (("--demo",), {"BOUNDLOOP_RATE_STORAGE": "redis://:pw@127.0.0.1:1/0"},
     "BOUNDLOOP_RATE_STORAGE='redis://:***@127.0.0.1:1/0': the rate-limit store does not answer"),
    (("--demo",), {"BOUNDLOOP_RATE_STORAGE": "memcached://cache"}, "must be memory:// or redis://host:port[/db]"),
])
def test_serve_refuses_unsafe_or_broken_settings(args, env, message):
    done = serve(*args, **env)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
