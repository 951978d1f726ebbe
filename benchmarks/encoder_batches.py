"""Encoder throughput against ONNX batch size, for ~100-word chunks (what ingest encodes).

Run from the repository root: `python benchmarks/encoder_batches.py [--sizes 8,1,4,2,8,1] [--words 400]`.
Sizes are interleaved in the order given so machine noise spreads over all of them; each figure is the best of
`--repeat` passes over 800 HotpotQA dev paragraphs handed over 256 at a time, as `ingest()` does.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import boundloop.retrieval.embeddings as embeddings  # noqa: E402
from boundloop.evals.datasets import load_dataset  # noqa: E402
from boundloop.retrieval.ingest import EMBED_STEP  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="8,1,4,2,8,1", help="batch sizes, comma-separated, run in this order")
    parser.add_argument("--words", type=int, default=400, help="cut each paragraph to this many words")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = parser.parse_args()

    dataset = load_dataset("hotpotqa", Path(args.data) / "hotpotqa" / "dev.jsonl")
    texts = [f"{p.title}\n{p.text}" for p in dataset.passages.values() if len(p.text.split()) > 40][:800]
    texts = [" ".join(t.split()[: args.words]) for t in texts]
    encoder = embeddings.build_embeddings()
    encoder.encode(texts[:64])  # warm up
    print(f"{len(texts)} texts, {statistics.mean(len(t.split()) for t in texts):.1f} words on average, "
          f"{encoder.workers} encoder workers\n\n| batch size | texts/s (best of {args.repeat}) |\n| --- | --- |")
    for size in (int(s) for s in args.sizes.split(",")):
        embeddings.BATCH_SIZE = size
        best = 0.0
        for _ in range(args.repeat):
            start = time.perf_counter()
            for i in range(0, len(texts), EMBED_STEP):
                encoder.encode(texts[i : i + EMBED_STEP])
            best = max(best, len(texts) / (time.perf_counter() - start))
        print(f"| {size} | {best:.1f} |")


if __name__ == "__main__":
    main()
