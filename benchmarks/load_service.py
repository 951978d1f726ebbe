"""Load test of `boundloop serve --workers 2`: requests/s and p50/p95 latency of POST /ask at 1, 8 and 32
concurrent clients, with SQLite and with PostgreSQL checkpoints, on the demo corpus and the offline reasoner.

Everything stays on loopback; every level sends a bounded number of requests and the script stops by itself.

    python benchmarks/load_service.py [--requests-per-client 12] [--levels 1 8 32] [--stores sqlite postgres]
                                      [--out bench-results/load_service.json]

Each request is one demo question (demo/questions.jsonl) asked by the user the dataset names, with that user's API
key. A request counts as an error unless it returns 200 with a result; the run fails if any request errs.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import yaml

REPO = Path(__file__).resolve().parents[1]
WARMUP_REQUESTS = 16


def _key(user: str) -> str:
    return f"bench-key-{user}"


def _prepare(folder: Path) -> tuple[Path, Path]:
    """A private copy of the demo index, and the demo directory with one API key (digest only) per user."""
    from boundloop.retrieval.config import DEMO_ROOT, Locations, demo_index_dir, open_index
    from boundloop.retrieval.embeddings import build_embeddings

    open_index(Locations(str(demo_index_dir()), DEMO_ROOT / "directory.yaml", True), build_embeddings()).close()
    index = folder / "index"
    shutil.copytree(demo_index_dir(), index, ignore=shutil.ignore_patterns("runs.db*"))  # a run store of its own
    directory = yaml.safe_load((REPO / "demo" / "directory.yaml").read_text())
    for user, entry in directory["users"].items():
        entry["api_key_sha256"] = [hashlib.sha256(_key(user).encode()).hexdigest()]
    path = folder / "directory.json"
    path.write_text(json.dumps(directory))
    return index, path


def _questions() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in (REPO / "demo" / "questions.jsonl").read_text().splitlines() if line.strip()]
    return [(row["user"], row["question"]) for row in rows]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _postgres(folder: Path) -> Iterator[str]:
    import pgserver

    data = Path(tempfile.mkdtemp(prefix="boundloop-bench-pg-"))
    server = pgserver.get_server(data, cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(data, ignore_errors=True)


def _environment(index: Path, directory: Path, checkpoint_url: str | None = None) -> dict[str, str]:
    """The server's environment: this machine's, less boundloop's own settings, offline, no rate limit."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOUNDLOOP_", "LANGSMITH_", "PROMETHEUS_"))}
    env.update(BOUNDLOOP_INDEX=str(index), BOUNDLOOP_DIRECTORY=str(directory), HF_HUB_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false", LANGSMITH_TRACING="false", BOUNDLOOP_MODEL="offline",
               BOUNDLOOP_RATE_PER_KEY="off", BOUNDLOOP_RATE_PER_ADDRESS="off")  # a throughput test from one address
    if checkpoint_url:
        env["BOUNDLOOP_CHECKPOINT_URL"] = checkpoint_url
    return env


def _start(env: dict[str, str], workers: int, log: Path) -> tuple[subprocess.Popen, str]:
    """`boundloop serve` in a process group of its own, and its base URL once /healthz answers."""
    port = _free_port()
    cmd = [sys.executable, "-m", "boundloop", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers",
           str(workers), "--log-level", "warning"]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"server exited:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            raise SystemExit(f"server not ready:\n{log.read_text()[-3000:]}")
        time.sleep(0.5)


@contextmanager
def _serve(index: Path, directory: Path, checkpoint_url: str | None, log: Path) -> Iterator[str]:
    proc, base = _start(_environment(index, directory, checkpoint_url), 2, log)
    try:
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


async def _level(base: str, clients: int, per_client: int, questions: list[tuple[str, str]]) -> dict:
    """`clients` concurrent clients, each sending `per_client` requests one after another."""
    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as http:

        async def client(number: int) -> None:
            for n in range(per_client):
                user, question = questions[(number * per_client + n) % len(questions)]
                started = time.perf_counter()
                response = await http.post("/ask", json={"question": question}, headers={"X-API-Key": _key(user)})
                latencies.append(time.perf_counter() - started)
                if response.status_code != 200 or "status" not in response.json():
                    errors.append(f"{response.status_code}: {response.text[:200]}")

        started = time.perf_counter()
        await asyncio.gather(*(client(n) for n in range(clients)))
        wall = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "clients": clients, "requests": len(latencies), "errors": len(errors), "error_samples": errors[:3],
        "seconds": round(wall, 2), "requests_per_s": round(len(latencies) / wall, 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000, 1),
    }


def _run_store(store: str, index: Path, directory: Path, folder: Path, args: argparse.Namespace) -> list[dict]:
    questions = _questions()
    with _postgres(folder) if store == "postgres" else _nothing() as url, \
            _serve(index, directory, url, folder / f"serve-{store}.log") as base:
        asyncio.run(_level(base, 4, WARMUP_REQUESTS // 4, questions))  # every worker loads and warms up
        rows = []
        for clients in args.levels:
            row = {"store": store, **asyncio.run(_level(base, clients, args.requests_per_client, questions))}
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


def _table(rows: list[dict]) -> str:
    lines = ["| checkpoints | clients | requests | errors | requests/s | p50 ms | p95 ms |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r['store']} | {r['clients']} | {r['requests']} | {r['errors']} | {r['requests_per_s']} | "
              f"{r['p50_ms']} | {r['p95_ms']} |" for r in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests-per-client", type=int, default=12)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--stores", nargs="+", choices=["sqlite", "postgres"], default=["sqlite", "postgres"])
    parser.add_argument("--out", type=Path, default=REPO / "bench-results" / "load_service.json")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="boundloop-load-") as tmp:
        folder = Path(tmp)
        index, directory = _prepare(folder)
        for store in args.stores:
            rows += _run_store(store, index, directory, folder, args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                                    "rows": rows}, indent=2))
    print(_table(rows))
    failed = sum(r["errors"] for r in rows)
    if failed:
        print(f"{failed} request(s) failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
