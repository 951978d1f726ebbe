"""Rate limits across workers: how many of 200 requests from one key `boundloop serve --workers 2` lets through.

The per-key limit is 60 a minute (`BOUNDLOOP_RATE_PER_KEY=60/minute`, the per-address limit off). The script
starts the demo service twice on a free loopback port: once counting in a real `redis-server` it starts itself
(`BOUNDLOOP_RATE_STORAGE=redis://...`), once without a shared store (each worker allows its share, 30). Each time
it sends 200 POST /ask from bob's demo key, one connection per request so the kernel spreads them over both
workers, and prints how many got 200. The issue's bound: at most 63 and at least 30 in both cases.

    python benchmarks/bench_rate_limit.py [--requests 200] [--out bench-results/rate_limit.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.service.redis_server import MISSING, available, redis_server  # noqa: E402
from tests.service.servers import free_port, running, server_env  # noqa: E402

QUESTION = {"question": "What is the daily meal allowance when travelling in Europe on a business trip?"}
KEY = {"X-API-Key": "demo-key-bob"}
LIMIT = "60/minute"


def send(base: str, requests: int) -> Counter[int]:
    """`requests` POST /ask, each on a new connection; the count of each status."""
    statuses: Counter[int] = Counter()
    for _ in range(requests):
        with httpx.Client(timeout=60) as client:
            statuses[client.post(base + "/ask", json=QUESTION, headers=KEY).status_code] += 1
    return statuses


def measure(folder: Path, storage: str | None, requests: int) -> dict[str, object]:
    port = free_port()
    env = server_env(BOUNDLOOP_RATE_PER_KEY=LIMIT, BOUNDLOOP_RATE_PER_ADDRESS="off",
                     **({"BOUNDLOOP_RATE_STORAGE": storage} if storage else {}))
    log = folder / f"serve-{'redis' if storage else 'memory'}.log"
    args = ["-m", "boundloop", "serve", "--demo", "--workers", "2", "--port", str(port), "--log-level", "warning"]
    with running(args, env, "/healthz", port, log) as base:
        statuses = send(base, requests)
    notice = [line for line in log.read_text().splitlines() if "BOUNDLOOP_RATE_STORAGE" in line]
    return {"storage": "redis" if storage else "memory (no shared store)", "sent": requests,
            "succeeded": statuses[200], "statuses": dict(statuses), "serve_notice": notice[:1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--out", help="also write the figures here as JSON")
    args = parser.parse_args()
    if not available():
        print(MISSING, file=sys.stderr)
        return 2
    rows = []
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-rate-")))
        url = stack.enter_context(redis_server(folder))
        for storage in (url, None):
            rows.append(measure(folder, storage, args.requests))
            row = rows[-1]
            print(f"{row['storage']}: {row['succeeded']} of {row['sent']} succeeded (limit {LIMIT}, 2 workers) "
                  f"{row['statuses']}", flush=True)
    ok = all(30 <= int(str(row["succeeded"])) <= 63 for row in rows)
    print("within 30..63 in both cases" if ok else "OUT OF BOUNDS")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(rows, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
