"""Which datasets `boundloop eval` knows, and how each is loaded with the options its setting needs."""

from __future__ import annotations

from pathlib import Path

from boundloop.evals import demo_questions
from boundloop.evals.datasets import DATASETS, EvalDataset, load_dataset
from boundloop.evals.datasets.readers import read_json_rows
from boundloop.policies.errors import BoundloopError

DATASET_NAMES = (*DATASETS, demo_questions.NAME)
USER_DATASETS = ("contoso",)
"""Datasets asked as a chosen user (`--user`); the others name their askers themselves."""


def load_eval_dataset(name: str, path: str | Path, limit: int | None, user: str | None = None
                      ) -> tuple[EvalDataset, list[str]]:
    """The dataset, and notes for the report on what loading left out.

    2WikiMultihopQA rows without paragraphs are skipped (their gold paragraphs are nowhere in the corpus).
    """
    if user is not None and name not in USER_DATASETS:
        raise BoundloopError(f"--user applies to {', '.join(USER_DATASETS)} only; {name} names its own askers")
    if name == demo_questions.NAME:
        return demo_questions.load(Path(path), limit), []
    if name == "2wikimultihopqa":
        dataset = load_dataset(name, path, limit, skip_rows_without_context=True)
        skipped = rows_without_context(Path(path), limit)
        return dataset, [f"{skipped} rows without context (paragraphs) skipped; {len(dataset.questions)} asked"]
    options = {"user": user} if user is not None else {}
    return load_dataset(name, path, limit, **options), []


def rows_without_context(path: Path, limit: int | None) -> int:
    """How many rows the 2WikiMultihopQA loader skipped before it had `limit` questions."""
    kept = skipped = 0
    for row in read_json_rows(path):
        if limit is not None and kept >= limit:
            break
        if row.has("context"):
            kept += 1
        else:
            skipped += 1
    return skipped
