"""A hanging model at the default limits: the demo question still gets the offline answer within 18 s.

Run from the repository root: `python3 benchmarks/bench_hanging_model.py` (about 10 s for the run, plus start-up).

The model endpoint (tests/llm/scripted.py --hang, in a child process) accepts every connection and never answers.
The reasoner is `openai:<model>` at that endpoint, the limits are the defaults (BOUNDLOOP_MAX_SECONDS=18) and the
question is the demo's "How many days of annual leave do Lisbon employees get?" for alice, asked through the CLI's
own wiring (`loop.workspace.Workspace`) after the index and the encoder are loaded; the offline reasoner answers the
same question first, for comparison. Prints elapsed (target: at most 18.25 s, the limit plus the closing grace),
status and short answer. `--cli` also times a whole `boundloop ask --json` process (start-up included). Runs are
recorded in a temporary run store, not in the demo's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the scripted endpoint lives under tests/

from bench_llm import endpoint  # noqa: E402  (the scripted endpoint in a child process)

QUESTION = "How many days of annual leave do Lisbon employees get?"
USER = "alice"
TARGET_SECONDS = 18.25
CLEARED = ("BOUNDLOOP_MAX_SECONDS", "BOUNDLOOP_MAX_TOKENS", "BOUNDLOOP_MAX_HOPS", "BOUNDLOOP_MAX_RETRIEVAL_CALLS",
           "BOUNDLOOP_LLM_TIMEOUT", "BOUNDLOOP_LLM_CALL_SHARE", "BOUNDLOOP_LLM_METHOD", "BOUNDLOOP_PROMPTS",
           "BOUNDLOOP_INDEX", "BOUNDLOOP_DIRECTORY", "BOUNDLOOP_CHECKPOINT_URL", "OPENAI_BASE_URL", "OPENAI_API_BASE",
           "OPENAI_API_KEY")


def requests_seen(url: str) -> int:
    with urllib.request.urlopen(url.removesuffix("/v1") + "/stats", timeout=5) as response:
        return int(json.load(response)["requests"])


def ask(model: str) -> dict[str, Any]:
    """The demo question once with `model`, timed around `LoopRunner.ask` (the index and encoder already loaded)."""
    from boundloop.loop.workspace import Workspace

    os.environ["BOUNDLOOP_MODEL"] = model
    runner = Workspace.open(None, None).runner
    started = time.monotonic()
    result = runner.ask(QUESTION, user=USER)
    elapsed = time.monotonic() - started
    return {"model": model, "elapsed_s": round(elapsed, 3), "run_elapsed_ms": result.usage.elapsed_ms,
            "status": result.status, "complete": result.complete, "stop_reason": result.stop_reason,
            "short_answer": result.short_answer, "searches": result.usage.retrieval_calls,
            "model_unavailable": result.model_unavailable}


def ask_cli(model: str) -> dict[str, Any]:
    """A whole `boundloop ask --json` process with `model`: start-up, index and encoder loading included."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "boundloop.cli.main", "ask", QUESTION, "--user", USER, "--json"],
                          env={**os.environ, "BOUNDLOOP_MODEL": model}, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    return {"model": model, "process_s": round(time.monotonic() - started, 3),
            "run_elapsed_ms": result["usage"]["elapsed_ms"], "status": result["status"],
            "short_answer": result["short_answer"], "model_unavailable": result["model_unavailable"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", action="store_true", help="also time a whole `boundloop ask --json` process")
    parser.add_argument("--out", default="bench-results/hanging_model.json")
    args = parser.parse_args()
    for name in CLEARED:
        os.environ.pop(name, None)
    os.environ["LANGSMITH_TRACING"] = "false"
    report: dict[str, Any] = {"question": QUESTION, "user": USER, "max_seconds": 18.0, "target_s": TARGET_SECONDS,
                              "python": sys.version.split()[0], "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="bench-hang-") as state, endpoint("--hang") as url:  # never answers
        os.environ.update(BOUNDLOOP_STATE_DIR=state, BOUNDLOOP_OPENAI_BASE_URL=url)
        report["offline"] = ask("offline")
        report["hanging"] = ask("openai:bench-model")
        report["hanging"]["endpoint_requests"] = requests_seen(url)
        if args.cli:
            report["hanging_cli"] = ask_cli("openai:bench-model")
    report["load_average_1m"] = os.getloadavg()[0]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    hanging = report["hanging"]
    for key in ("offline", "hanging", "hanging_cli"):
        if key in report:
            row = report[key]
            seconds = f"{row['elapsed_s']:.2f} s" if "elapsed_s" in row else f"{row['process_s']:.2f} s (process)"
            print(f"{key:12} {seconds:>22}  run {row['run_elapsed_ms'] / 1000:.2f} s  {row['status']:9} "
                  f"short answer {row['short_answer']!r}")
    print(f"hanging: {hanging['endpoint_requests']} request(s) to the endpoint; complete {hanging['complete']}; "
          f"{hanging['model_unavailable']}")
    within = hanging["elapsed_s"] <= TARGET_SECONDS
    print(f"elapsed {hanging['elapsed_s']:.2f} s against the target {TARGET_SECONDS} s: {'ok' if within else 'OVER'}; "
          f"load average {report['load_average_1m']:.1f}")
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
