"""What the instruction detector (`policies/instructions.py`) decides and costs: its tables, per sentence, per `ask`.

Run: python3 benchmarks/bench_instructions.py [--rounds 5] [--sentences ../shared/data/hotpotqa/dev.jsonl]
                                               [--out bench-results/instructions.json] [--table-only]

The tables of `tests/instruction_tables.py` first: instructions caught (the instruction is detected and only the
context before it stays data) and look-alikes kept (no rule trips and every sentence stays data), with the ones
missed or flagged listed. `--table-only` stops there.

Side by side in one run, on the bundled demo corpus with the offline reasoner: every demo question asked with the
detector, with the detector's cache emptied before each question, and with the detector replaced by one that finds
nothing (the floor), the three modes interleaved question by question. Per-sentence times are over the demo
corpus's sentences and, if given, a HotpotQA file's.
`flagged` counts the sentences the detector reads as instructions (the demo corpus plants two). All times are
medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.loop.workspace import Workspace  # noqa: E402
from boundloop.policies import instructions  # noqa: E402
from boundloop.retrieval.chunking import chunk_document, chunk_sentences  # noqa: E402
from boundloop.retrieval.config import DEMO_ROOT  # noqa: E402
from boundloop.retrieval.documents import Document  # noqa: E402
from boundloop.retrieval.loaders import load_path  # noqa: E402
from tests.instruction_tables import INSTRUCTIONS, LOOK_ALIKES, ORDINARY, PLANTED  # noqa: E402


def table_counts() -> dict[str, object]:
    """The tables as the tests read them: caught and kept counts, by rule, and what went wrong."""
    def caught(text: str) -> bool:
        *context, sentence = text.split("\n")
        return instructions.is_instruction(sentence) and instructions.data_sentences(text) == context

    def kept(sentence: str) -> bool:
        return instructions.instruction_rule(sentence) is None and \
            instructions.data_sentences(sentence) == chunk_sentences(sentence)

    rules = Counter(instructions.instruction_rule(text.split("\n")[-1]) or "missed" for text in INSTRUCTIONS)
    return {
        "instructions_caught": f"{sum(map(caught, INSTRUCTIONS))}/{len(INSTRUCTIONS)}",
        "look_alikes_kept": f"{sum(map(kept, LOOK_ALIKES))}/{len(LOOK_ALIKES)}",
        "first_table_planted_caught": f"{sum(map(instructions.is_instruction, PLANTED))}/{len(PLANTED)}",
        "first_table_ordinary_kept": f"{sum(map(kept, ORDINARY))}/{len(ORDINARY)}",
        "instructions_by_rule": dict(rules.most_common()),
        "missed": [text for text in INSTRUCTIONS if not caught(text)] +
                  [text for text in PLANTED if not instructions.is_instruction(text)],
        "flagged": [text for text in LOOK_ALIKES + ORDINARY if not kept(text)],
    }


def _demo_sentences() -> list[str]:
    docs = [item for item in load_path(DEMO_ROOT / "corpus") if isinstance(item, Document)]
    return [s for doc in docs for chunk in chunk_document(doc) for s in chunk_sentences(chunk.text)]


def _hotpot_sentences(path: Path) -> list[str]:
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return [s for row in rows for paragraph in row["context"]["sentences"] for s in paragraph]


def per_sentence_us(sentences: list[str]) -> dict[str, float]:
    instructions.instruction_rule.cache_clear()
    started = time.perf_counter()
    for sentence in sentences:
        instructions.is_instruction(sentence)
    first = time.perf_counter() - started
    started = time.perf_counter()
    for sentence in sentences:
        instructions.is_instruction(sentence)
    again = time.perf_counter() - started
    flagged = sum(instructions.is_instruction(sentence) for sentence in sentences)
    return {"sentences": len(sentences), "flagged": flagged, "first_us": round(first * 1e6 / len(sentences), 2),
            "cached_us": round(again * 1e6 / len(sentences), 3)}


def ask_ms(rounds: int) -> dict[str, float]:
    runner = Workspace.open(None, None).runner
    questions = [json.loads(line) for line in (DEMO_ROOT / "questions.jsonl").read_text().splitlines() if line]
    real = instructions.instruction_rule
    for row in questions:  # warm-up: encoder, index pages, caches
        runner.ask(row["question"], row["user"])
    times: dict[str, list[float]] = {"detector": [], "detector, cache emptied": [], "no detector": []}
    modes = list(times)
    for round_ in range(rounds):
        for n, row in enumerate(questions):
            for mode in modes[(n + round_) % 3:] + modes[: (n + round_) % 3]:  # each mode goes first in turn
                detector = (lambda sentence: None) if mode == "no detector" else real
                instructions.instruction_rule = detector  # type: ignore[assignment]
                if mode == "detector, cache emptied":
                    real.cache_clear()
                started = time.perf_counter()
                runner.ask(row["question"], row["user"])
                times[mode].append((time.perf_counter() - started) * 1000)
    instructions.instruction_rule = real
    return {mode: round(statistics.median(values), 2) for mode, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sentences", type=Path, help="a HotpotQA JSONL file for a second per-sentence figure")
    parser.add_argument("--out", default="bench-results/instructions.json")
    parser.add_argument("--table-only", action="store_true", help="only the tables' counts")
    args = parser.parse_args()
    tables = table_counts()
    print(json.dumps(tables, indent=2, ensure_ascii=False))
    if args.table_only:
        return
    result = {"tables": tables, "per_sentence": {"demo": per_sentence_us(_demo_sentences())},
              "ask_p50_ms": ask_ms(args.rounds)}
    if args.sentences:
        result["per_sentence"]["hotpotqa"] = per_sentence_us(_hotpot_sentences(args.sentences))
    floor = result["ask_p50_ms"]["no detector"]
    result["ask_ratio_to_no_detector"] = {mode: round(ms / floor, 3) for mode, ms in result["ask_p50_ms"].items()}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({key: value for key, value in result.items() if key != "tables"}, indent=2))


if __name__ == "__main__":
    main()
