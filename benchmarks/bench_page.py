"""The web page's numbers on the demo: first byte of `/`, page weight, and the first live step after Ask.

    python benchmarks/bench_page.py [--requests 200] [--rounds 2] [--out bench-results/page.json]

Starts `boundloop serve` (one worker, offline reasoner, the demo corpus from the usual cache) on a free loopback
port and drives Debian's Chromium through Playwright (see tests/web/browser.py):

- first byte: GET / on a fresh TCP connection each time, from connect() to the first response byte (median, p95);
- weight: every document, script, stylesheet and image the browser loads for the page, uncompressed (the server
  sends no compression), and the files under service/static/;
- first live step: from the Enter key press in the question box to the first step shown on the page, timed
  inside the page (`performance.now()` in a capturing keydown listener, then a MutationObserver and the next
  animation frame), for every demo question asked as its own user, `--rounds` times; also to the status shown.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boundloop.retrieval.config import DEMO_ROOT  # noqa: E402
from boundloop.service.web import STATIC  # noqa: E402
from tests.web.actions import sign_in  # noqa: E402
from tests.web.browser import browser_session  # noqa: E402
from tests.web.demo_service import demo_service  # noqa: E402

TIMINGS = """
window.__timing = {};
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && event.target.dataset.testid === "question") {
    window.__timing = { ask: performance.now() };
  }
}, true);
new MutationObserver((records) => {
  const timing = window.__timing;
  if (!timing.ask) return;
  for (const record of records) for (const node of record.addedNodes) {
    if (node.nodeType !== 1) continue;
    const is = (id) => node.dataset.testid === id || node.querySelector(`[data-testid=${id}]`);
    for (const [id, key] of [["step", "step"], ["status", "status"]]) {
      if (!timing[key] && is(id)) {
        timing[key + "_dom"] = performance.now();
        timing[key] = -1;
        requestAnimationFrame(() => { timing[key] = performance.now(); });
      }
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def first_byte_ms(base: str, requests: int) -> list[float]:
    host, port = urlsplit(base).hostname or "127.0.0.1", urlsplit(base).port or 80
    request = f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode()
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        with socket.create_connection((host, port)) as sock:
            sock.sendall(request)
            sock.recv(1)
            times.append((time.perf_counter() - started) * 1000)
            while sock.recv(65536):
                pass
    return times


def page_weight(session) -> dict[str, int]:
    loaded: dict[str, int] = {}

    def record(response) -> None:
        if response.request.resource_type in ("document", "script", "stylesheet", "image", "font"):
            loaded[urlsplit(response.url).path] = len(response.body())

    session.page.on("response", record)
    sign_in(session.page, session.base, "demo-key-alice")
    session.page.wait_for_load_state("networkidle")
    return loaded


def first_steps(session, questions: list[dict], rounds: int) -> tuple[list[float], list[float]]:
    page = session.page
    page.add_init_script(TIMINGS)
    steps, answers = [], []
    for _ in range(rounds):
        for user in sorted({q["user"] for q in questions}):
            sign_in(page, session.base, f"demo-key-{user}")
            for q in (q for q in questions if q["user"] == user):
                before = page.get_by_test_id("status").count()
                page.get_by_test_id("question").fill(q["question"])
                page.get_by_test_id("question").press("Enter")
                page.get_by_test_id("status").nth(before).wait_for(timeout=60_000)
                page.wait_for_timeout(50)  # the frames after the status
                timing = page.evaluate("window.__timing")
                steps.append(timing["step"] - timing["ask"])
                answers.append(timing["status"] - timing["ask"])
            page.get_by_test_id("sign-out").click()
    return steps, answers


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=200, help="GET / requests for the first byte")
    parser.add_argument("--rounds", type=int, default=2, help="times every demo question is asked")
    parser.add_argument("--out", default="bench-results/page.json")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    questions = [json.loads(line) for line in (DEMO_ROOT / "questions.jsonl").read_text().splitlines() if line]
    log = Path(args.out).with_suffix(".server.log")
    with demo_service(log, os.environ.get("BOUNDLOOP_CACHE")) as base, sync_playwright() as driver:
        first_byte_ms(base, 20)  # warm-up
        ttfb = first_byte_ms(base, args.requests)
        with browser_session(driver, base) as session:
            loaded = page_weight(session)
        with browser_session(driver, base) as session:
            steps, answers = first_steps(session, questions, args.rounds)
            session.assert_clean()
    files = {str(p.relative_to(STATIC)): p.stat().st_size for p in sorted(STATIC.rglob("*")) if p.is_file()}
    report = {
        "first_byte_ms": {"median": statistics.median(ttfb), "p95": percentile(ttfb, 0.95), "n": len(ttfb)},
        "page_bytes": {"loaded_total": sum(loaded.values()), "loaded": loaded, "files_total": sum(files.values())},
        "first_step_ms": {"median": statistics.median(steps), "p95": percentile(steps, 0.95), "n": len(steps)},
        "status_ms": {"median": statistics.median(answers), "p95": percentile(answers, 0.95), "n": len(answers)},
    }
    Path(args.out).write_text(json.dumps(report, indent=2))
    print("| measure | median | p95 | target |\n| --- | ---: | ---: | --- |")
    print(f"| first byte of `/` (fresh connection, n={len(ttfb)}) | {report['first_byte_ms']['median']:.1f} ms "
          f"| {report['first_byte_ms']['p95']:.1f} ms | <= 50 ms |")
    print(f"| page + assets as loaded, uncompressed ({len(loaded)} files) | {sum(loaded.values()) / 1024:.1f} KB "
          f"| | <= 300 KB |")
    print(f"| first live step after Ask (n={len(steps)}) | {report['first_step_ms']['median']:.0f} ms "
          f"| {report['first_step_ms']['p95']:.0f} ms | <= 300 ms |")
    print(f"| status shown after Ask | {report['status_ms']['median']:.0f} ms | {report['status_ms']['p95']:.0f} ms "
          f"| |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
