"""Peak memory and throughput of `boundloop ingest` on a large JSONL of many documents (issue 31).

Generates `--documents` documents of `--document-kb` KB of plain prose (50 MB by default: 5,000 of 10 KB) in a
temporary folder, ingests them into a fresh index with `boundloop ingest` in a child process, and reports the
child's peak RSS (`resource.getrusage(RUSAGE_CHILDREN)`) and chunks per second, wall clock, from process start to
exit (encoder load included). Ingest streams: its peak should not grow with the input.

    python3 benchmarks/ingest_memory.py [--documents 5000] [--document-kb 10] [--index postgresql://...]
    python3 benchmarks/ingest_memory.py --quick      # 500 documents (5 MB)

`--code DIR` runs the `boundloop` of another checkout (DIR first on PYTHONPATH), to measure a version before.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("policy office staff expense travel approval budget quarter report team manager review contract "
         "supplier invoice payment deadline meeting project release customer support security access "
         "laptop badge parking lease floor room schedule holiday leave salary band level hiring onboarding "
         "training audit risk control finance legal people facilities engineering product design data").split()


def document_text(rng: random.Random, size: int) -> str:
    """About `size` characters of sentences of 8-20 words, in paragraphs of 3-6 sentences."""
    paragraphs: list[str] = []
    length = 0
    while length < size:
        sentences = []
        for _ in range(rng.randint(3, 6)):
            words = [rng.choice(WORDS) for _ in range(rng.randint(8, 20))]
            sentences.append(" ".join(words).capitalize() + f" ({rng.randint(1, 9999)}).")
        paragraph = " ".join(sentences)
        paragraphs.append(paragraph)
        length += len(paragraph) + 2
    return "\n\n".join(paragraphs)[:size]


def write_corpus(path: Path, documents: int, document_bytes: int) -> int:
    """The JSONL file; its size in bytes."""
    rng = random.Random(31)
    with path.open("w", encoding="utf-8") as out:
        for i in range(documents):
            row = {"id": f"doc-{i:06}", "title": f"Document {i}", "acl": ["all-staff"],
                   "text": document_text(rng, document_bytes)}
            out.write(json.dumps(row) + "\n")
    return path.stat().st_size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--documents", type=int, default=5_000)
    parser.add_argument("--document-kb", type=float, default=10.0)
    parser.add_argument("--index", help="an index location (default: a fresh folder); postgresql://... for PG")
    parser.add_argument("--code", type=Path, help="run the boundloop of this checkout instead")
    parser.add_argument("--quick", action="store_true", help="500 documents")
    args = parser.parse_args()
    documents = 500 if args.quick else args.documents
    environ = dict(os.environ)
    if args.code:
        environ["PYTHONPATH"] = os.pathsep.join([str(args.code.resolve()), environ.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory(prefix="ingest-memory-") as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        size = write_corpus(corpus, documents, int(args.document_kb * 1000))
        index = args.index or str(Path(tmp) / "index")
        command = [sys.executable, "-m", "boundloop", "ingest", str(corpus), "--index", index, "--json"]
        start = time.perf_counter()
        done = subprocess.run(command, cwd=tmp, env=environ, capture_output=True, text=True)
        seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return done.returncode
    report = json.loads(done.stdout)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KB on Linux
    print(json.dumps({
        "documents": documents, "jsonl_mb": round(size / 1e6, 1), "chunks": report["chunks_written"],
        "seconds": round(seconds, 1), "chunks_per_s": round(report["chunks_written"] / seconds, 1),
        "peak_rss_mb": round(peak_mb), "load_average_1m": round(os.getloadavg()[0], 1),
        "code": str(args.code or ROOT),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
