"""LLM reasoner benchmark: the loop's own overhead around model calls, and deadlines against a hanging endpoint.

Run from the repository root: `python benchmarks/bench_llm.py` (add `--quick` for a smoke run).

A scripted OpenAI-compatible endpoint (tests/llm/scripted.py) runs in a separate process, so its work does not
compete with the loop for the GIL, and answers every request after a fixed delay. The endpoint's own time per
request is read back from it (`/stats`); overhead is wall time minus that: the real langchain-openai client,
structured-output parsing, prompt building, the deadline machinery, and (per run) retrieval, the offline steps
and the graph. Then the endpoint hangs, and runs with BOUNDLOOP_MAX_SECONDS=3 must each end within 3.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the scripted endpoint and the small test corpus live under tests/

from langchain_core.messages import HumanMessage  # noqa: E402

from boundloop.loop.runner import LoopRunner  # noqa: E402
from boundloop.policies.budget import BudgetLimits, CallBudget  # noqa: E402
from boundloop.policies.entitlements import Directory, EntitlementResolver  # noqa: E402
from boundloop.reasoners.factory import build_reasoner  # noqa: E402
from boundloop.reasoners.llm import LLMSettings, build_chat_model  # noqa: E402
from boundloop.reasoners.llm.deadline import run_within  # noqa: E402
from boundloop.reasoners.llm.schemas import QuestionUnderstanding  # noqa: E402
from boundloop.reasoners.llm.settings import CALL_SHARE  # noqa: E402
from boundloop.reasoners.offline import OfflineReasoner  # noqa: E402
from boundloop.retrieval.ingest import ingest  # noqa: E402
from boundloop.retrieval.loaders import load_jsonl  # noqa: E402
from boundloop.retrieval.sqlite_index import SqliteIndex  # noqa: E402
from tests.conftest import DOCS, USERS, HashEncoder  # noqa: E402

QUESTION = "Who approves expense claims above EUR 5,000?"
USER = "bob"


@contextmanager
def endpoint(*args: str):
    """The scripted endpoint in a child process; yields its base URL."""
    child = subprocess.Popen([sys.executable, "-m", "tests.llm.scripted", *args], cwd=ROOT, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        yield child.stdout.readline().strip()
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=10)


def endpoint_seconds(url: str) -> float:
    with urllib.request.urlopen(url.removesuffix("/v1") + "/stats", timeout=5) as reply:
        return float(json.loads(reply.read())["seconds"])


def corpus(folder: Path) -> tuple[SqliteIndex, HashEncoder, EntitlementResolver]:
    folder.mkdir(parents=True)
    (folder / "docs.jsonl").write_text("\n".join(json.dumps(d) for d in DOCS) + "\n")
    encoder = HashEncoder()
    index = SqliteIndex(folder / "index", create=True)
    ingest(index, encoder, load_jsonl(folder / "docs.jsonl"), show_progress=False)
    return index, encoder, EntitlementResolver(Directory.from_mapping(USERS))


def overhead_ms(url: str, fn: Callable[[], Any]) -> float:
    before = endpoint_seconds(url)
    started = time.perf_counter()
    fn()
    wall = time.perf_counter() - started
    return (wall - (endpoint_seconds(url) - before)) * 1000


def per_call(url: str, runs: int) -> dict[str, float]:
    """Median overhead of each model-backed step called directly."""
    reasoner, offline = build_reasoner(), OfflineReasoner()
    budget = CallBudget(seconds=30, tokens=40_000)
    understanding = offline.understand(QUESTION, budget).value
    from tests.llm.fakes import EXPENSE, ORGCHART, verdict

    steps: dict[str, Callable[[], Any]] = {
        "understand": lambda: reasoner.understand(QUESTION, budget),
        "plan": lambda: reasoner.plan(QUESTION, understanding, budget),
        "synthesise": lambda: reasoner.synthesise(QUESTION, understanding, [EXPENSE, ORGCHART], None, budget),
        "judge": lambda: reasoner.judge(QUESTION, [verdict(EXPENSE.text, ["expense#0"])], [EXPENSE], budget),
    }
    body = {"model": "bench-model", "messages": [{"role": "user", "content": QUESTION}],
            "response_format": {"type": "json_schema", "json_schema": {"name": "QuestionUnderstanding", "schema": {}}}}
    structured = build_chat_model(LLMSettings(provider="openai", model="bench-model", base_url=url)) \
        .with_structured_output(QuestionUnderstanding, include_raw=True)
    messages = [HumanMessage(f"<question>{QUESTION}</question>")]
    with httpx.Client(timeout=10) as http:
        steps["reference: bare HTTP POST (httpx)"] = lambda: http.post(f"{url}/chat/completions", json=body).json()
        steps["reference: langchain-openai structured call alone"] = lambda: run_within(
            30, structured.ainvoke(messages))
        for fn in steps.values():
            fn()  # warm: connection, schemas, imports
        return {name: statistics.median(overhead_ms(url, fn) for _ in range(runs)) for name, fn in steps.items()}


def per_run(url: str, folder: Path, runs: int) -> dict[str, Any]:
    index, encoder, resolver = corpus(folder)
    limits = BudgetLimits.from_env()
    llm = LoopRunner(resolver=resolver, backend=index, encoder=encoder, reasoner=build_reasoner(), limits=limits)
    offline = LoopRunner(resolver=resolver, backend=index, encoder=encoder, reasoner=OfflineReasoner(),
                         limits=limits)
    llm.ask(QUESTION, USER)
    offline.ask(QUESTION, USER)
    overheads, baseline, statuses = [], [], set()
    for _ in range(runs):
        before = endpoint_seconds(url)
        started = time.perf_counter()
        result = llm.ask(QUESTION, USER)
        wall = time.perf_counter() - started
        overheads.append((wall - (endpoint_seconds(url) - before)) * 1000)
        statuses.add(result.status)
        started = time.perf_counter()
        offline.ask(QUESTION, USER)
        baseline.append((time.perf_counter() - started) * 1000)
    return {"overhead_ms": statistics.median(overheads), "offline_run_ms": statistics.median(baseline),
            "statuses": sorted(statuses), "model_calls": 4}


def hanging(folder: Path, runs: int, parallel: int) -> dict[str, Any]:
    index, encoder, resolver = corpus(folder)
    loop = LoopRunner(resolver=resolver, backend=index, encoder=encoder, reasoner=build_reasoner(),
                      limits=BudgetLimits.from_env())

    def one(_: int) -> tuple[float, str]:
        started = time.perf_counter()
        status = loop.ask(QUESTION, USER).status
        return time.perf_counter() - started, status

    sequential = [one(i) for i in range(runs)]
    with ThreadPoolExecutor(parallel) as pool:
        concurrent = list(pool.map(one, range(parallel)))
    every = sequential + concurrent
    return {"runs": len(every), "max_s": max(s for s, _ in every), "median_s": statistics.median(s for s, _ in every),
            "statuses": sorted({status for _, status in every}), "concurrent": parallel}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.2, help="the endpoint's fixed delay per reply (s)")
    parser.add_argument("--runs", type=int, default=30, help="repetitions for the medians")
    parser.add_argument("--hang-runs", type=int, default=5, help="sequential runs against the hanging endpoint")
    parser.add_argument("--parallel", type=int, default=4, help="concurrent runs against the hanging endpoint")
    parser.add_argument("--quick", action="store_true", help="a smoke run (5 repetitions, 2 hanging runs)")
    parser.add_argument("--out", default="bench-results/llm.json")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.hang_runs, args.parallel = 5, 2, 2
    os.environ.update(BOUNDLOOP_MODEL="openai:bench-model", BOUNDLOOP_MAX_SECONDS="3", LANGSMITH_TRACING="false")
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "BOUNDLOOP_LLM_TIMEOUT", "BOUNDLOOP_LLM_CALL_SHARE",
                 "BOUNDLOOP_PROMPTS"):
        os.environ.pop(name, None)
    report: dict[str, Any] = {"delay_s": args.delay, "runs": args.runs, "python": sys.version.split()[0],
                              "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="bench-llm-") as tmp, endpoint("--delay", str(args.delay)) as url:
        os.environ["BOUNDLOOP_OPENAI_BASE_URL"] = url
        os.environ["BOUNDLOOP_MAX_SECONDS"] = "30"
        report["per_call_overhead_ms"] = per_call(url, args.runs)
        report["per_run"] = per_run(url, Path(tmp) / "a", args.runs)
    with tempfile.TemporaryDirectory(prefix="bench-llm-") as tmp, endpoint("--hang") as url:
        os.environ.update(BOUNDLOOP_OPENAI_BASE_URL=url, BOUNDLOOP_MAX_SECONDS="3")
        report["hanging"] = hanging(Path(tmp) / "a", args.hang_runs, args.parallel)
        os.environ["BOUNDLOOP_LLM_TIMEOUT"] = "0.5"
        report["hanging_with_call_cap_0.5s"] = hanging(Path(tmp) / "b", args.hang_runs, args.parallel)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print_report(report)


def print_report(report: dict[str, Any]) -> None:
    calls, run = report["per_call_overhead_ms"], report["per_run"]
    print(f"\nendpoint delay {report['delay_s'] * 1000:.0f} ms; medians over {report['runs']} repetitions; "
          f"{report['cpus']} CPUs, Python {report['python']}\n")
    print("| call | overhead per call (ms): wall time minus the endpoint's time |\n| --- | --- |")
    for name, ms in calls.items():
        print(f"| {name} | {ms:.1f} |")
    added = (run["overhead_ms"] - run["offline_run_ms"]) / run["model_calls"]
    print(f"\nper run ({run['model_calls']} model calls): overhead {run['overhead_ms']:.1f} ms; the same run with the "
          f"offline reasoner takes {run['offline_run_ms']:.1f} ms, so the model path adds {added:.1f} ms per call; "
          f"statuses {run['statuses']}\n")
    print("| hanging endpoint, BOUNDLOOP_MAX_SECONDS=3 | runs | max (s) | median (s) | statuses |\n"
          "| --- | --- | --- | --- | --- |")
    for key in ("hanging", "hanging_with_call_cap_0.5s"):
        h = report[key]
        label = f"default ({CALL_SHARE:.0%} of the time left)" if key == "hanging" else "BOUNDLOOP_LLM_TIMEOUT=0.5"
        print(f"| {label} | {h['runs']} ({h['concurrent']} concurrent) | {h['max_s']:.2f} | {h['median_s']:.2f} "
              f"| {', '.join(h['statuses'])} |")


if __name__ == "__main__":
    main()
