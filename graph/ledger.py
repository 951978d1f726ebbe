"""The run's ledger: what a run has spent and which step ran last, kept where neither the state nor a client reaches.

The loop's state is written by the steps and, on the LangGraph server, by whoever may update a thread
(`POST /threads/{id}/state`, a run's `command.update`). The governor never trusts a counter kept there: usage is
added up here, in the run context, which the server builds for each run. So every run starts from zero, a second
run on the same thread included.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from boundloop.domain.steps import STEPS, Step
from boundloop.domain.usage import Usage


class Ledger:
    """Usage of one run, added up step by step (`Usage.__add__` is the reducer), and its wall clock."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started_at = clock()
        self.last_step: Step | None = None
        self._spent = Usage()

    def usage(self, plus: Usage | None = None) -> Usage:
        """What the run has spent so far (plus what a step is about to spend), with the time elapsed now."""
        spent = self._spent + plus if plus is not None else self._spent
        return spent.model_copy(update={"elapsed_ms": int((self.clock() - self.started_at) * 1000)})

    def record(self, node: str, spent: Usage) -> None:
        """Add what a node spent; a step (not the governor) becomes the last step run."""
        self._spent = self._spent + spent
        if node in STEPS:
            self.last_step = node
