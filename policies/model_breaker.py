"""The run's circuit breaker for its model: once a call times out or cannot connect, no other call is sent.

A model endpoint that accepts the connection and never answers costs each call its whole timeout; one such call is
enough to know. The breaker then opens, every later step of the run takes the offline decision at once, and the
result says why (`RunResult.model_unavailable`). A breaker serves one run (it lives in the run context), so the
next run tries the model again.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ModelBreaker:
    """Closed until a model call finds the model unavailable; open for the rest of the run after that."""

    failure: str | None = None
    """Why the model was found unavailable (`timeout`, `connection refused`, ...); None while it was not."""
    step: str | None = None
    """The step whose call found it."""

    @property
    def open(self) -> bool:
        """Whether the run has stopped calling its model."""
        return self.failure is not None

    def trip(self, step: str, failure: str) -> None:
        """Open the breaker; the first failure is the one the run reports."""
        if self.failure is None:
            self.failure, self.step = failure, step

    def explanation(self) -> str | None:
        """What the run's result tells its user, e.g. 'model unavailable (timeout in understand); ...'."""
        if self.failure is None:
            return None
        return f"model unavailable ({self.failure} in {self.step}); the rest of the run was decided offline"
