"""What the offline reader's answerability model costs per question, on the demo's 40 questions.

Run: python3 benchmarks/bench_answerability.py [--rounds 5]
Each question is asked once through the loop for its evidence; then, per round, the model's decision is timed on
that evidence: its features (two MiniLM cosines, encoded afresh each round) and the logistic score, and the
logistic score alone. Medians over questions and rounds, measured side by side in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.domain.models import Understanding  # noqa: E402
from boundloop.loop.workspace import Workspace  # noqa: E402
from boundloop.reasoners.offline.answerability import features, load_model  # noqa: E402
from boundloop.reasoners.offline.drafting import asked, best_chains, evidence_units  # noqa: E402
from boundloop.reasoners.offline.reading import term_weights  # noqa: E402
from boundloop.reasoners.offline.similarity import EncoderSimilarity  # noqa: E402
from boundloop.retrieval.config import DEMO_ROOT  # noqa: E402
from boundloop.retrieval.embeddings import build_embeddings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    runner = Workspace.open(None, None).runner
    encoder = build_embeddings("minilm")
    model = load_model()
    cases = []
    for line in (DEMO_ROOT / "questions.jsonl").read_text().splitlines():
        q = json.loads(line)
        result = runner.ask(q["question"], q["user"])
        evidence = runner.evidence(result.run_id)
        question = asked(q["question"])
        expected, found = best_chains(question, Understanding(query_class=result.query_class), evidence)
        if found:
            units, _ = evidence_units(evidence)
            cases.append((question, expected, found, term_weights(question, units)))
    decided, logistic = [], []
    for _ in range(args.rounds):
        for question, expected, found, weights in cases:
            similarity = EncoderSimilarity(encoder)  # no cosine cached from an earlier round
            started = time.perf_counter()
            row = features(question, expected, found[0], found[1] if len(found) > 1 else None, weights, similarity)
            middle = time.perf_counter()
            model.probability(row)
            ended = time.perf_counter()
            decided.append((ended - started) * 1000)
            logistic.append((ended - middle) * 1000)
    print(json.dumps({
        "questions": len(cases), "rounds": args.rounds,
        "decision_p50_ms": round(statistics.median(decided), 3),
        "decision_p95_ms": round(sorted(decided)[int(0.95 * (len(decided) - 1))], 3),
        "logistic_p50_ms": round(statistics.median(logistic), 4),
        "model_file_bytes": (Path(__file__).resolve().parent.parent / "reasoners/offline/answerability.json").stat()
        .st_size,
    }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
