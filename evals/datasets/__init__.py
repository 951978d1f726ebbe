"""Loaders for the offline-eval datasets: each format becomes questions, pooled passages and a user directory.

`load_dataset("hotpotqa", "../shared/data/hotpotqa/dev.jsonl", limit=50)` is the entry point. A missing file
or a malformed row raises `DatasetError` (a `ValueError`) naming the file and line.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boundloop.evals.datasets import contoso, hotpotqa, musique, sec10q, squad2, twowikimultihopqa
from boundloop.evals.datasets.errors import DatasetError
from boundloop.evals.datasets.model import EvalDataset, EvalPassage, EvalQuestion

__all__ = ["DATASETS", "DatasetError", "EvalDataset", "EvalPassage", "EvalQuestion", "load_dataset"]

DATASETS: dict[str, Callable[..., EvalDataset]] = {
    hotpotqa.NAME: hotpotqa.load,
    musique.NAME: musique.load,
    twowikimultihopqa.NAME: twowikimultihopqa.load,
    squad2.NAME: squad2.load,
    contoso.NAME: contoso.load,
    sec10q.NAME: sec10q.load,
}
"""Dataset name -> loader `(path, limit, **options)`."""


def load_dataset(name: str, path: str | Path, limit: int | None = None, **options: Any) -> EvalDataset:
    """Load the first `limit` questions of dataset `name` from `path` (a file, or a folder for contoso/sec10q).

    Options: contoso takes `user` ("employee" or "hr"), `employee_group` and `hr_group`;
    2wikimultihopqa takes `skip_rows_without_context`. Other datasets take none.
    """
    loader = DATASETS.get(name)
    if loader is None:
        raise ValueError(f"unknown dataset {name!r}; known datasets: {', '.join(DATASETS)}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ValueError(f"limit must be None or a non-negative integer, got {limit!r}")
    accepted = [p.name for p in inspect.signature(loader).parameters.values() if p.kind is p.KEYWORD_ONLY]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise ValueError(f"{name} does not take option(s) {unknown}; it takes {accepted or 'none'}")
    return loader(Path(path), limit, **options)
