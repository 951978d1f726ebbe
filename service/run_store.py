"""What the service needs of a run registry; the SQLite `RunRegistry` and `PostgresRunRegistry` both provide it."""

from __future__ import annotations

from typing import Any, Protocol

from domain.result import RunResult


class RunStore(Protocol):
    """Who owns each run and how it ended, shared by every worker that serves the same deployment."""

    def start(self, run_id: str, owner: str, question: str) -> None: ...

    def finish(self, run_id: str, result: RunResult) -> None: ...

    def owner(self, run_id: str) -> str | None: ...

    def result(self, run_id: str) -> dict[str, Any] | None: ...

    def finished_runs(self) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...
