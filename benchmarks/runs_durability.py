"""Runs kept when `boundloop serve` and the CLI share one runs.db and the server dies with kill -9.

The server (`--workers 2`, a private copy of the demo index) answers demo questions over HTTP without pause while
the CLI, one command after another, reads the same store (`trace`, `stats`, `doctor`), prunes it (`runs prune`),
asks (`ask --json`) and ingests a document into the index. After `--runs` finished runs (HTTP and CLI together; the
last few over HTTP after the last CLI command) the whole server is killed with SIGKILL, and the script counts the
finished runs that runs.db holds, as a new process reads it. Target: all of them.

    python3 benchmarks/runs_durability.py [--runs 200] [--workers 2] [--out bench-results/runs_durability.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import httpx
from load_service import _environment, _key, _prepare, _questions, _start  # the set-up both benchmarks use

REPO = Path(__file__).resolve().parents[1]
CLIENTS = 2  # concurrent HTTP asks
PAUSE_S = 0.2  # between two rounds of HTTP asks while a CLI command runs: its asks spread over the command's life
LAST_OVER_HTTP = 20  # runs asked after the last CLI command has closed the store

NEW_DOCUMENT = {"id": "durability-note", "title": "Durability note", "acl": ["all-staff"],
                "text": "The durability benchmark added this note while the server was answering."}


class Runs:
    """The finished runs, by who ran them; `claim` hands out the `--runs` slots."""

    def __init__(self, limit: int) -> None:
        self.limit, self.claimed = limit, 0
        self.http: list[str] = []
        self.cli: list[str] = []

    def claim(self, ceiling: int) -> bool:
        """A slot for one more run, while fewer than `ceiling` (and `limit`) are claimed."""
        if self.claimed >= min(ceiling, self.limit):
            return False
        self.claimed += 1
        return True


def _ask_http(base: str, question: tuple[str, str]) -> str:
    user, text = question
    response = httpx.post(base + "/ask", json={"question": text}, headers={"X-API-Key": _key(user)}, timeout=120)
    response.raise_for_status()
    return str(response.json()["run_id"])


def _cli_commands(new: Path, first_run: str) -> list[list[str]]:
    """One round of CLI commands: each reads, writes or checks the store or the index the server has open."""
    return [["trace", first_run], ["stats"], ["ask", "Who approves expense claims?", "--user", "bob", "--json"],
            ["runs", "prune"], ["doctor"], ["ingest", str(new)],
            ["ask", "Where is the Lisbon office?", "--user", "bob", "--json"], ["stats", "--json"]]


def run(limit: int, workers: int, folder: Path) -> dict:
    index, directory = _prepare(folder)
    new = folder / "new.jsonl"
    new.write_text(json.dumps(NEW_DOCUMENT) + "\n")
    env = _environment(index, directory)
    questions = itertools.cycle(_questions())
    runs, commands_run, failures = Runs(limit), 0, []
    server, base = _start(env, workers, folder / "server.log")
    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            def http_batch(ceiling: int) -> None:
                batch = [next(questions) for _ in range(CLIENTS) if runs.claim(ceiling)]
                runs.http.extend(pool.map(lambda q: _ask_http(base, q), batch))

            before_cli = limit - LAST_OVER_HTTP
            http_batch(before_cli)
            cycle = _cli_commands(new, runs.http[0])
            per_command = max(1, before_cli // (2 * len(cycle)))  # at least two rounds of every command
            commands = itertools.cycle(cycle)
            while runs.claimed < before_cli:
                args = next(commands)
                if args[0] == "ask" and not runs.claim(before_cli):
                    continue
                cli = subprocess.Popen([sys.executable, "-m", "boundloop", *args], cwd=REPO, env=env, text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
                ceiling = min(runs.claimed + per_command, before_cli)
                while cli.poll() is None:  # the server writes while the CLI starts, has the store open, closes it
                    http_batch(ceiling)
                    time.sleep(PAUSE_S)
                out, err = cli.communicate(timeout=300)
                commands_run += 1
                if cli.returncode != 0:  # counted and shown: a run the CLI cannot find is a symptom too
                    failures.append(f"boundloop {' '.join(args)}: {(err.strip().splitlines() or ['?'])[-1]}")
                elif args[0] == "ask":
                    runs.cli.append(json.loads(out)["run_id"])
            while runs.claimed < limit:
                http_batch(limit)  # after the last CLI command closed the store
        os.killpg(server.pid, signal.SIGKILL)  # the server and its workers, as a power cut or the OOM killer would
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
    finished = runs.http + runs.cli
    with closing(sqlite3.connect(f"file:{index / 'runs.db'}?mode=ro", uri=True)) as db:
        marks = ",".join("?" * len(finished))
        kept = {row[0] for row in db.execute(
            f"SELECT run_id FROM boundloop_runs WHERE status IS NOT NULL AND run_id IN ({marks})", finished)}
    with closing(sqlite3.connect(f"file:{index / 'index.db'}?mode=ro", uri=True)) as db:
        ingested = db.execute("SELECT count(*) FROM documents WHERE doc_id=?", (NEW_DOCUMENT["id"],)).fetchone()[0]
    return {"finished": len(finished), "found": len(kept), "http": len(runs.http), "cli": len(runs.cli),
            "http_found": len(kept & set(runs.http)), "cli_found": len(kept & set(runs.cli)),
            "cli_commands": commands_run, "cli_failures": failures, "ingested_document_found": bool(ingested),
            "workers": workers}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="finished runs, HTTP and CLI together (default: 200)")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes (default: 2)")
    parser.add_argument("--out", type=Path, help="also write the figures here as JSON")
    args = parser.parse_args()
    if args.runs <= LAST_OVER_HTTP + CLIENTS:
        parser.error(f"--runs must be more than {LAST_OVER_HTTP + CLIENTS}")
    with tempfile.TemporaryDirectory(prefix="boundloop-durability-") as folder:
        figures = run(args.runs, args.workers, Path(folder))
    print(f"found {figures['found']} of {figures['finished']} finished runs after kill -9 "
          f"(HTTP {figures['http_found']} of {figures['http']}, CLI {figures['cli_found']} of {figures['cli']}; "
          f"{figures['cli_commands']} CLI commands beside the server); "
          f"document ingested by the CLI {'found' if figures['ingested_document_found'] else 'MISSING'}")
    for failure in figures["cli_failures"]:
        print(f"failed: {failure}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(figures, indent=2) + "\n")
    whole = figures["found"] == figures["finished"] and figures["ingested_document_found"]
    return 0 if whole and not figures["cli_failures"] else 1


if __name__ == "__main__":
    sys.exit(main())
