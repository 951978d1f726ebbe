"""Reading `--batch` files: one {"id", "user", "question"} object per line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from boundloop.policies.errors import BoundloopError


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


def run_batch(path: str, out_path: str | None, answer: Callable[[str, str], dict[str, Any]], desc: str) -> int:
    """Answer every line of a batch file; one JSON object per line (with `id` and `user`) to `out_path` or stdout.

    A line that fails gets an `error` field and the batch goes on; a progress bar shows when writing to a file.
    The exit code is 1 when any line failed (a script must not take a batch of errors for success), else 0.
    """
    lines = list(read_batch(path))
    out: IO[str] = Path(out_path).open("w", encoding="utf-8") if out_path else sys.stdout
    failures = 0
    try:
        for line in tqdm(lines, unit="line", desc=desc, file=sys.stderr, disable=not out_path):
            row: dict[str, Any] = {"id": line.id, "user": line.user}
            if line.error is None and line.user is not None and line.question is not None:
                try:
                    row.update(answer(line.user, line.question))
                except BoundloopError as exc:
                    row["error"] = str(exc)
            else:
                row.update(line=line.line, error=line.error)
            failures += "error" in row
            out.write(json.dumps(row) + "\n")
            out.flush()
    finally:
        if out_path:
            out.close()
    if failures:
        print(f"{failures} of {len(lines)} batch line(s) failed; see their 'error' fields", file=sys.stderr)
        return 1
    return 0
