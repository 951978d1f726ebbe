"""Companies the reader was not written for: how many of each probe set's questions come out as they should.

Run: python3 benchmarks/enterprise_probes.py [--sets a,b,c] [--verbose] [--json]

Each set in `evals/probes/` (see its README) is a fictional organisation's documents, users and questions, written
by someone who had not seen the reader. The set is ingested into a fresh index and each question asked once,
through the loop, as its user, with the offline reasoner. A question is as expected when:
- `answered`: the run answered and one of the acceptable short answers is in its short answer (case and
  punctuation aside);
- `abstain`: the run did not answer (an abstention or a list of documents);
- `withheld`: the run did not answer and no secret value of the question appears in its answer, short answer,
  citations or document list (a leak fails the set whatever else happens).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.cli.workspace import Workspace  # noqa: E402
from boundloop.retrieval.ingest import ingest  # noqa: E402
from boundloop.retrieval.loaders import load_folder  # noqa: E402
from boundloop.retrieval.sqlite_index import SqliteIndex  # noqa: E402

PROBES = Path(__file__).resolve().parent.parent / "evals" / "probes"


def _plain(text: str | None) -> str:
    text = unicodedata.normalize("NFKC", text or "").lower().replace("’", "'")
    return " ".join(re.sub(r"[^\w@.:'€$£%/-]+", " ", text).split())


def _shows(result: dict[str, Any], secret: str) -> bool:
    shown = _plain(" ".join([result.get("answer") or "", result.get("short_answer") or "",
                             json.dumps(result.get("citations")), json.dumps(result.get("fallback_results"))]))
    return re.search(rf"(?<![\w.]){re.escape(_plain(secret))}(?!\w)", shown) is not None


def judge(question: dict[str, Any], result: dict[str, Any]) -> tuple[bool, bool]:
    """(as expected, leaked)."""
    answered = result["status"] == "answered"
    golds = question.get("short") or []
    if question["expect"] == "answered":
        short = _plain(result.get("short_answer"))
        return answered and any(_plain(g) and _plain(g) in short for g in golds), False
    leaked = question["expect"] == "withheld" and any(_plain(g) and _shows(result, g) for g in golds)
    return not answered and not leaked, leaked


def run_set(folder: Path, verbose: bool) -> dict[str, Any]:
    questions = [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory(prefix="probe-") as tmp:
        os.environ["BOUNDLOOP_STATE_DIR"] = str(Path(tmp) / "state")
        index = SqliteIndex(Path(tmp) / "index", create=True)
        workspace = Workspace.open(str(Path(tmp) / "index"), str(folder / "dir.yaml"))
        ingest(index, workspace.encoder, load_folder(folder / "docs"), default_acl="staff", show_progress=False)
        index.close()
        runner = workspace.runner
        by_kind: dict[str, list[int]] = {}
        ok = leaks = 0
        for q in questions:
            result = runner.ask(q["question"], q["user"]).model_dump(mode="json")
            good, leaked = judge(q, result)
            ok, leaks = ok + good, leaks + leaked
            tally = by_kind.setdefault(q.get("kind", "other"), [0, 0])
            tally[0], tally[1] = tally[0] + good, tally[1] + 1
            if verbose and not good:
                print(f"[{folder.name}] {q['user']}: {q['question']} -> {result['status']} "
                      f"{result.get('short_answer')!r} (expected {q['expect']} {q.get('short')})", file=sys.stderr)
        workspace.backend.close()
    return {"as_expected": ok, "questions": len(questions), "leaks": leaks,
            "by_kind": {k: f"{a}/{n}" for k, (a, n) in sorted(by_kind.items())}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(sorted(p.name for p in PROBES.iterdir() if p.is_dir())))
    parser.add_argument("--verbose", action="store_true", help="print every question not as expected")
    args = parser.parse_args()
    report = {name: run_set(PROBES / name, args.verbose) for name in args.sets.split(",")}
    total = sum(r["as_expected"] for r in report.values()), sum(r["questions"] for r in report.values())
    report["all"] = {"as_expected": total[0], "questions": total[1],
                     "leaks": sum(r["leaks"] for r in report.values())}
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 1 if report["all"]["leaks"] else 0


if __name__ == "__main__":
    sys.exit(main())
