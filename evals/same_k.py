"""The matched-k retrieval baseline: single-shot hybrid retrieval of as many chunks as the loop's evidence held.

For each question, k is the number of distinct chunks the loop's evidence held; one hybrid search for the whole
question at that k, as the same user, tells what the loop's hops bought over simply retrieving more.
"""

from __future__ import annotations

from collections.abc import Callable

from boundloop.evals.metrics import Scores, support_precision, support_recall
from boundloop.evals.records import Gold, RunRecord
from boundloop.retrieval.search import EntitledSearcher

SYSTEM = "one_hop_same_k"
"""Its name among the systems of a report."""


def same_k_scores(question: str, loop: RunRecord, gold: Gold,
                  searcher_for: Callable[[str], EntitledSearcher]) -> Scores:
    """Support recall and precision of one search at the loop's evidence size (nothing retrieved when k is 0)."""
    k = len({e.chunk_id for e in loop.evidence})
    docs = {hit.doc_id for hit in searcher_for(gold.user).search(question, k=k, mode="hybrid")} if k else set()
    return {
        "support_recall": support_recall(docs, gold),
        "support_precision": support_precision(docs, gold),
        "retrieval_calls": 1.0 if k else 0.0,
        "evidence_chunks": float(k),
    }
