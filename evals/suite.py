"""Runs an eval: load the dataset, build or reuse its index, run every system as a LangSmith experiment, score."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langsmith.evaluation import EvaluationResult, EvaluationResults
from langsmith.schemas import Example, Run

from boundloop.evals.aggregate import aggregate, by_group
from boundloop.evals.config import EvalConfig
from boundloop.evals.corpus import EvalCorpus, asking_user
from boundloop.evals.experiment import RowEvaluator, ScoredRun, record_of_run, run_experiment
from boundloop.evals.index_cache import cached_index
from boundloop.evals.langsmith_data import ExampleData, local_client, local_examples, upload_client, uploaded_examples
from boundloop.evals.leaks import LeakDetector
from boundloop.evals.metrics import ScoringContext
from boundloop.evals.records import Gold
from boundloop.evals.report_model import EvalReport, SystemResult
from boundloop.evals.same_k import SYSTEM as SAME_K
from boundloop.evals.same_k import same_k_scores
from boundloop.evals.sources import load_eval_dataset
from boundloop.evals.systems import SystemRunner
from boundloop.retrieval.backend import Encoder
from boundloop.retrieval.embeddings import build_embeddings
from boundloop.retrieval.search import EntitledSearcher

SAME_K_PREFIX = "same_k_"
SAME_K_METRICS = ("n", "support_recall", "support_precision", "avg_retrieval_calls", "avg_evidence_chunks")


def run_eval(config: EvalConfig, encoder: Encoder | None = None) -> EvalReport:
    """Every system of `config` over the same questions, index and synthesiser."""
    started, clock = datetime.now(UTC), time.monotonic()
    client = upload_client() if config.upload else local_client()  # refuses --upload without a key, up front
    dataset, notes = load_eval_dataset(config.dataset, config.path, config.limit, config.user)
    corpus = EvalCorpus.of(dataset)
    encoder = encoder or build_embeddings()
    label = f"{dataset.name}-{Path(config.path).stem}-{config.limit or 'all'}"
    backend = cached_index(corpus.documents, encoder, label, config.cache_root, config.show_progress)
    try:
        resolver = corpus.resolver()
        context = ScoringContext(config.limits, LeakDetector(corpus.view, corpus.texts))
        items = []
        for q in dataset.questions:
            user = asking_user(q, config.setting)
            items.append(ExampleData(q.qid, {"question": q.question, "user": user, "qid": q.qid},
                                     Gold.of(q, user).model_dump()))
        name = "-".join(filter(None, ["boundloop", label, config.user, config.setting]))
        examples = uploaded_examples(client, name, items) if config.upload else local_examples(name, items)

        def searcher_for(user: str) -> EntitledSearcher:
            return EntitledSearcher(backend, encoder, resolver.access_filter(user))

        systems: dict[str, SystemResult] = {}
        for system in config.systems:
            runner = SystemRunner(system, resolver, backend, encoder, config.limits)
            extra = [same_k_evaluator(searcher_for)] if system == "loop" else []
            experiment, runs = run_experiment(
                runner.target(trace_steps=config.upload), examples, context, client=client, upload=config.upload,
                workers=config.workers, prefix=f"{dataset.name}-{config.setting}-{system}", extra_evaluators=extra,
                metadata={"system": system, "dataset": dataset.name, "path": config.path,
                          "setting": config.setting, "encoder": encoder.name, "reasoner": runner.runner.reasoner.name},
            )
            systems[system] = system_result(system, runs, experiment)
        if "loop" in systems:
            systems[SAME_K] = same_k_result(systems["loop"].runs)
    finally:
        backend.close()
    return EvalReport(
        dataset=dataset.name, path=config.path, n=len(dataset.questions), setting=config.setting,
        limits=config.limits, encoder=encoder.name, systems=systems, user=config.user, uploaded=config.upload,
        started_at=started.isoformat(timespec="seconds"), seconds=round(time.monotonic() - clock, 1), notes=notes,
    )


def system_result(name: str, runs: list[ScoredRun], experiment: str) -> SystemResult:
    rows = [run.scores for run in runs]
    return SystemResult(name, aggregate(rows), by_group(rows, [run.qtype for run in runs]), runs, experiment)


def same_k_result(loop_runs: list[ScoredRun]) -> SystemResult:
    """The matched-k baseline, from the scores the loop's experiment gave it."""
    rows = [{k.removeprefix(SAME_K_PREFIX): v for k, v in run.extra.items() if k.startswith(SAME_K_PREFIX)}
            for run in loop_runs]

    def only(metrics: dict[str, Any]) -> dict[str, Any]:
        return {k: metrics[k] for k in SAME_K_METRICS}

    by_type = by_group(rows, [run.qtype for run in loop_runs])
    return SystemResult(SAME_K, only(aggregate(rows)), {t: only(m) for t, m in by_type.items()})


def same_k_evaluator(searcher_for: Callable[[str], EntitledSearcher]) -> RowEvaluator:
    """A loop-run evaluator: support recall of one hybrid search at the loop's own evidence size."""

    def one_hop_same_k(run: Run, example: Example) -> EvaluationResults:
        record, _ = record_of_run(run)
        question = (example.inputs or {})["question"]
        scores = same_k_scores(question, record, Gold.model_validate(example.outputs), searcher_for)
        return {"results": [EvaluationResult(key=SAME_K_PREFIX + k, score=v) for k, v in scores.items()
                            if v is not None]}

    return one_hop_same_k

