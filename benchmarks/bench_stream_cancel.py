"""A client that disconnects mid-stream: the time from its disconnect to its run's end (recorded cancelled).

Each round starts a real uvicorn server in this process over the tests' small corpus (hash encoder, run store in a
temporary folder) with the offline reasoner made 0.25 s slower a step (a model call's latency), sends POST
/ask/stream, reads the first event, closes the connection, and watches the run store until the run is marked
cancelled. The run stops at its next transition, so the figure is bounded by one step's time. Prints the figure per
round and the median; the issue's bound is 1 s.

    python benchmarks/bench_stream_cancel.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.conftest import DOCS, HashEncoder  # noqa: E402
from tests.service.conftest import make_state  # noqa: E402
from tests.service.stream_cancel import STEP_S, SlowReasoner, leave_after_first_event, uvicorn_server  # noqa: E402


def one_round(folder: Path) -> tuple[str | None, float | None, int]:
    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.loaders import load_jsonl
    from boundloop.retrieval.sqlite_index import SqliteIndex

    docs = folder / "docs.jsonl"
    docs.write_text("\n".join(json.dumps(d) for d in DOCS) + "\n")
    encoder = HashEncoder()
    index = SqliteIndex(folder / "index", create=True)
    ingest(index, encoder, load_jsonl(docs), show_progress=False)
    reasoner = SlowReasoner()
    state = make_state(index, encoder, folder, reasoner=reasoner)
    try:
        with uvicorn_server(state) as base:
            left = leave_after_first_event(base, state, reasoner)
    finally:
        state.close()
    return left.status, left.seconds_to_end, left.calls_after - left.calls_when_left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    ends = []
    for n in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="bench-cancel-") as tmp:
            status, seconds, later_calls = one_round(Path(tmp))
        shown = "never" if seconds is None else f"{seconds:.3f} s"
        print(f"round {n + 1}: {status}, disconnect to the run's end {shown}, model steps after the disconnect: "
              f"{later_calls}", flush=True)
        if status != "cancelled" or seconds is None:
            return 1
        ends.append(seconds)
    print(f"median {statistics.median(ends):.3f} s, max {max(ends):.3f} s over {len(ends)} rounds "
          f"(a step takes {STEP_S} s; bound 1 s)")
    return 0 if max(ends) <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
