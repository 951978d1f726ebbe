"""Where the loop's evidence comes from, on pooled HotpotQA: passages and gold paragraphs added by each kind of search.

Run from the repository root: `python benchmarks/loop_sources.py [--split dev] [--limit N]`. For every question the
offline loop runs against one index of all the file's paragraphs; each evidence chunk is credited to the first
search that found it. Printed beside it: the loop's gold-paragraph recall and single-shot hybrid recall with the
same number of passages (the figure `boundloop eval` reports as `one_hop_same_k`). Tune on dev only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.evals.datasets import load_dataset  # noqa: E402
from boundloop.evals.index_cache import cached_index  # noqa: E402
from boundloop.loop.runner import LoopRunner  # noqa: E402
from boundloop.policies.budget import BudgetLimits  # noqa: E402
from boundloop.policies.entitlements import AccessFilter, Directory, EntitlementResolver  # noqa: E402
from boundloop.reasoners.offline import OfflineReasoner  # noqa: E402
from boundloop.retrieval.documents import Document  # noqa: E402
from boundloop.retrieval.embeddings import build_embeddings  # noqa: E402
from boundloop.retrieval.search import hybrid_search  # noqa: E402
from boundloop.runstore.sqlite import SqliteRunStore  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="dev", choices=["dev", "test"])
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = parser.parse_args()

    dataset = load_dataset("hotpotqa", Path(args.data) / "hotpotqa" / f"{args.split}.jsonl", limit=args.limit)
    encoder = build_embeddings()
    documents = [Document(doc_id=p.doc_id, title=p.title, text=p.text, acl=("all",))
                 for p in dataset.passages.values()]
    index = cached_index(documents, encoder, f"loop-sources-hotpotqa-{args.split}-{args.limit}")
    resolver = EntitlementResolver(Directory.from_mapping({"users": {"eval": {"groups": ["all"]}}}))
    with tempfile.TemporaryDirectory() as runs:
        runner = LoopRunner(resolver=resolver, backend=index, encoder=encoder, reasoner=OfflineReasoner(),
                            limits=BudgetLimits(), store=SqliteRunStore(Path(runs) / "runs.db"))
        sources: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        loop_recall, same_k_recall, sizes = [], [], []
        for question in dataset.questions:
            result = runner.ask(question.question, "eval")
            state = runner.graph.get_state({"configurable": {"thread_id": result.run_id}}).values
            purposes = {q.id: f"{q.purpose.split(':')[0]} [{q.mode}], hop {{}}" for q in state.get("subqueries", [])}
            gold = set(question.supporting_doc_ids)
            first: dict[str, tuple[str, str]] = {}
            for e in sorted(state.get("evidence", []), key=lambda e: e.hop):
                label = purposes.get(e.found_by[0], e.found_by[0]).format(e.hop)
                first.setdefault(e.chunk_id, (e.doc_id, label))
            for doc_id, label in first.values():
                sources[label][0] += 1
                sources[label][1] += doc_id in gold
            n = max(len(first), 1)
            single = {h.doc_id for h in hybrid_search(index, encoder, question.question,
                                                      AccessFilter(frozenset({"all"})), k=n)}
            loop_recall.append(len({d for d, _ in first.values()} & gold) / len(gold))
            same_k_recall.append(len(single & gold) / len(gold))
            sizes.append(len(first))
    index.close()
    print(f"HotpotQA pooled {args.split}, {len(dataset.questions)} questions, {len(documents)} paragraphs\n")
    print(f"loop evidence recall {statistics.mean(loop_recall):.3f}; single-shot hybrid at the same k "
          f"{statistics.mean(same_k_recall):.3f}; passages per question {statistics.mean(sizes):.2f}\n")
    print("| search (purpose [mode], hop) | passages added | gold among them | share |\n| --- | --- | --- | --- |")
    for label, (added, gold_found) in sorted(sources.items(), key=lambda item: -item[1][0]):
        print(f"| {label} | {added} | {gold_found} | {gold_found / added:.0%} |")


if __name__ == "__main__":
    main()
