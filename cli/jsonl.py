"""Reading `--batch` files: one {"id", "user", "question"} object per line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from policies.errors import BoundloopError


@dataclass(frozen=True)
class BatchLine:
    """One request of a batch, or the reason it cannot run (`error`)."""

    line: int
    id: str | None
    user: str | None
    question: str | None
    error: str | None = None


def read_batch(path: str) -> Iterator[BatchLine]:
    """Each non-blank line of the file; malformed lines come back with `error` set instead of stopping the batch."""
    try:
        handle = Path(path).open(encoding="utf-8")
    except OSError as exc:
        raise BoundloopError(f"cannot read batch file {path}: {exc.strerror or exc}") from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except json.JSONDecodeError as exc:
                yield BatchLine(number, None, None, None, f"{path}:{number}: broken JSON: {exc.msg}")
                continue
            if not isinstance(row, dict):
                yield BatchLine(number, None, None, None, f"{path}:{number}: expected a JSON object")
                continue
            ident = str(row["id"]) if row.get("id") is not None else str(number)
            user, question = row.get("user"), row.get("question")
            if not isinstance(user, str) or not isinstance(question, str) or not question.strip():
                yield BatchLine(number, ident, user if isinstance(user, str) else None, None,
                                f"{path}:{number}: needs string fields 'user' and 'question'")
                continue
            yield BatchLine(number, ident, user, question)
