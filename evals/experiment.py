"""One system, one LangSmith experiment: `evaluate` runs the target over the examples with our evaluators.

Per-run scores are LangSmith feedback (one result per metric); the experiment summary carries the aggregates.
Uploads are off unless asked for: then runs, feedback and summary go to the LangSmith service.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langsmith import Client, evaluate
from langsmith.evaluation import EvaluationResult, EvaluationResults
from langsmith.schemas import Example, Run

from boundloop.evals.aggregate import aggregate
from boundloop.evals.metrics import SCORE_KEYS, Scores, ScoringContext, score_run
from boundloop.evals.records import Gold, RunRecord

NOTES_KEY = "budget_violation"
"""The feedback key whose comment carries the run's notes (leaks and budget problems)."""

RowEvaluator = Callable[[Run, Example], EvaluationResults]


@dataclass(frozen=True)
class ScoredRun:
    """One question's run under one system, with its scores."""

    gold: Gold
    record: RunRecord
    scores: Scores
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    extra: Scores = field(default_factory=dict)
    """Scores of evaluators beyond the standard ones (e.g. the matched-k baseline), by key."""

    @property
    def qid(self) -> str:
        return self.gold.qid

    @property
    def qtype(self) -> str:
        return self.gold.qtype


def record_of_run(run: Run) -> tuple[RunRecord, str | None]:
    """The run's record; a run whose target raised becomes an empty 'error' record, with the error."""
    if run.error or not run.outputs or "status" not in run.outputs:
        return RunRecord(status="error", answer=""), run.error or "the target returned no record"
    return RunRecord.model_validate(run.outputs), None


def _results(scores: Scores, comments: dict[str, str] | None = None) -> EvaluationResults:
    comments = comments or {}
    return {"results": [EvaluationResult(key=key, score=value, comment=comments.get(key))
                        for key, value in scores.items() if value is not None]}


def run_scorer(context: ScoringContext) -> RowEvaluator:
    """The standard per-run evaluator: every score of `evals.metrics`, notes on the budget_violation result."""

    def boundloop_scores(run: Run, example: Example) -> EvaluationResults:
        record, error = record_of_run(run)
        scores, notes = score_run(record, Gold.model_validate(example.outputs), context)
        notes = ([f"error: {error}"] if error else []) + notes
        return _results(scores, {NOTES_KEY: "\n".join(notes)} if notes else None)

    return boundloop_scores


def summary_scorer(context: ScoringContext) -> Callable[[list[Run], list[Example]], EvaluationResults]:
    """The experiment-level evaluator: the aggregate metrics, computed from the same per-run scores."""

    def boundloop_summary(runs: list[Run], examples: list[Example]) -> EvaluationResults:
        rows = [score_run(record_of_run(run)[0], Gold.model_validate(example.outputs), context)[0]
                for run, example in zip(runs, examples, strict=True)]
        return _results({k: v for k, v in aggregate(rows).items() if v is not None})

    return boundloop_summary


def run_experiment(
    target: Callable[[dict[str, Any]], dict[str, Any]], examples: Sequence[Example], context: ScoringContext,
    *, client: Client, upload: bool, workers: int, prefix: str, metadata: dict[str, Any],
    extra_evaluators: Sequence[RowEvaluator] = (),
) -> tuple[str, list[ScoredRun]]:
    """Run `target` over `examples` with `workers` threads; the experiment's name and its scored runs."""
    standard = run_scorer(context)
    # LangSmith announces the experiment on stdout; keep stdout for --json.
    with contextlib.redirect_stdout(sys.stderr), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*'upload_runs' parameter is in beta")
        results = evaluate(
            target, data=list(examples), evaluators=[standard, *extra_evaluators],
            summary_evaluators=[summary_scorer(context)], experiment_prefix=prefix, metadata=metadata,
            max_concurrency=workers, client=client, upload_results=upload, blocking=True,
        )
        rows = list(results)
    order = {example.id: n for n, example in enumerate(examples)}
    rows.sort(key=lambda row: order.get(row["example"].id, len(order)))
    return results.experiment_name, [_scored(row["run"], row["example"], row["evaluation_results"]["results"])
                                     for row in rows]


def _scored(run: Run, example: Example, feedback: list[EvaluationResult]) -> ScoredRun:
    """A run as the report sees it, its scores read back from the LangSmith feedback."""
    record, error = record_of_run(run)
    gold = Gold.model_validate(example.outputs)
    by_key = {result.key: result for result in feedback}
    comment = by_key[NOTES_KEY].comment if NOTES_KEY in by_key else None
    return ScoredRun(
        gold=gold, record=record,
        scores={key: _score(by_key.get(key)) for key in SCORE_KEYS},
        notes=comment.split("\n") if comment else [], error=error,
        extra={key: _score(result) for key, result in sorted(by_key.items()) if key not in SCORE_KEYS},
    )


def _score(result: EvaluationResult | None) -> float | None:
    if result is None or result.score is None:
        return None
    return float(result.score)
