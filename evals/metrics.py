"""Per-run scores: pure functions of a run's record, its question's gold, the limits and the ACL view.

A score is None where it does not apply (answer scores for an unanswerable question, precision without
evidence); the aggregates skip those. Definitions:

- answer_em / answer_f1: HotpotQA normalisation, best over the gold answer and its aliases; the prediction is
  the short answer when the run gave one, else the answer without its [n] markers, and '' when the run did not
  answer. Answerable questions only.
- answer_recall: the normalised gold answer (or an alias) appears in the normalised answer or short answer.
- support_recall: share of the gold supporting documents the user may read that the evidence reached.
- support_precision: share of the evidence's distinct documents that are gold supporting documents.
- citation_precision: share of the answer's citations that point to a gold supporting document.
- claims_drafted / claims_kept: feed grounding_rate, kept over drafted summed over all runs.
- abstain_correct: answered an answerable question, or did not answer (abstained or fell back) an unanswerable one.
- leak: any cited, fallback or retrieved document, or any quoted text, outside the asking user's entitlements.
- budget_violation: usage over any limit (each `BudgetLimits` field), past its overrun: elapsed time (or the eval's
  own latency) may pass max_seconds by 0.5 s.
"""

from __future__ import annotations

from dataclasses import dataclass

from boundloop.evals.answers import best_over, contains, exact_match, f1, strip_markers
from boundloop.evals.leaks import LeakDetector
from boundloop.evals.records import Gold, RunRecord
from boundloop.policies.limits import BudgetLimits, bounds

Scores = dict[str, float | None]

SCORE_KEYS = (
    "answer_em", "answer_f1", "answer_recall", "support_recall", "support_precision", "citation_precision",
    "claims_drafted", "claims_kept", "answered", "abstain_correct", "leak", "budget_violation", "limit_hit",
    "hops", "tokens", "retrieval_calls", "evidence_chunks", "latency_ms",
)
"""Every per-run score `score_run` gives, in order."""


@dataclass(frozen=True)
class ScoringContext:
    """What scoring needs beyond the run and the gold: the limits and the leak detector."""

    limits: BudgetLimits
    leaks: LeakDetector


def readable_support(gold: Gold) -> set[str]:
    return set(gold.supporting_doc_ids) - set(gold.forbidden_doc_ids)


def support_recall(evidence_docs: set[str], gold: Gold) -> float | None:
    support = readable_support(gold)
    return len(support & evidence_docs) / len(support) if support else None


def support_precision(evidence_docs: set[str], gold: Gold) -> float | None:
    if not evidence_docs or not gold.supporting_doc_ids:
        return None
    return len(evidence_docs & set(gold.supporting_doc_ids)) / len(evidence_docs)


def citation_precision(record: RunRecord, gold: Gold) -> float | None:
    if not record.citations or not gold.supporting_doc_ids:
        return None
    support = set(gold.supporting_doc_ids)
    return sum(c.doc_id in support for c in record.citations) / len(record.citations)


def budget_problems(record: RunRecord, limits: BudgetLimits) -> list[str]:
    """Every limit the run went past (each declared limit, generically); empty for a compliant run.

    The time limit is read against the eval's own clock too: a run that reported less than it took is over.
    """
    measured = {"elapsed_ms": max(record.usage.elapsed_ms, record.latency_ms)}
    return [problem for bound in bounds(limits)
            if (problem := bound.passed(measured.get(bound.limit.usage, bound.used(record.usage))))]


def answer_scores(record: RunRecord, gold: Gold) -> Scores:
    if not gold.answerable:
        return {"answer_em": None, "answer_f1": None, "answer_recall": None}
    answered = record.status == "answered"
    claims = strip_markers(record.answer) if answered else ""
    # exact match and F1 score the short answer when the run gave one (the value asked for), else the claims
    prediction = (record.short_answer or claims) if answered else ""
    golds = tuple(gold.answers)
    return {
        "answer_em": best_over(exact_match, prediction, golds),
        "answer_f1": best_over(f1, prediction, golds),
        "answer_recall": max(best_over(contains, claims, golds), best_over(contains, record.short_answer or "", golds)),
    }


def score_run(record: RunRecord, gold: Gold, context: ScoringContext) -> tuple[Scores, list[str]]:
    """Every per-run score, and notes naming each leak and budget violation found."""
    evidence_docs = {e.doc_id for e in record.evidence}
    answered = record.status == "answered"
    leaks = context.leaks.findings(gold.user, record)
    over = budget_problems(record, context.limits)
    scores: Scores = {
        **answer_scores(record, gold),
        "support_recall": support_recall(evidence_docs, gold),
        "support_precision": support_precision(evidence_docs, gold),
        "citation_precision": citation_precision(record, gold),
        "claims_drafted": float(record.claims_drafted),
        "claims_kept": float(record.claims_kept),
        "answered": float(answered),
        "abstain_correct": float(answered == gold.answerable),
        "leak": float(bool(leaks)),
        "budget_violation": float(bool(over)),
        "limit_hit": float(record.stop_reason is not None),
        "hops": float(record.usage.hops),
        "tokens": float(record.usage.tokens),
        "retrieval_calls": float(record.usage.retrieval_calls),
        "evidence_chunks": float(len({e.chunk_id for e in record.evidence})),
        "latency_ms": record.latency_ms,
    }
    return scores, leaks + over
