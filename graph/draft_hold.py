"""The synthesiser's draft on its way to the verifier, held in the run context: never a channel of the state.

Whatever a channel holds, a LangGraph client can read: the thread's state and history, and the `values`, `updates`,
`debug`, `tasks` and `checkpoints` stream modes (a run with `interrupt_before: ["verify"]` once stopped with the
unverified draft in its state, and a finished thread kept it). The verifier decides what ships, so the draft goes
from synthesise to verify through this hold, kept where the run's ledger is: the state only gets what was verified.
"""

from __future__ import annotations

from boundloop.domain.models import Draft


class DraftHold:
    """One run's draft between the two steps: synthesise puts it, verify takes it."""

    def __init__(self) -> None:
        self._draft: Draft | None = None

    def put(self, draft: Draft) -> None:
        """Hold the latest draft (the closing path may synthesise again after a working synthesise)."""
        self._draft = draft

    def take(self) -> Draft:
        """The draft held, which leaves the hold; an empty draft when there is none (nothing then ships).

        A run continued by another process from a checkpoint finds the hold empty: the draft was never written down.
        """
        draft, self._draft = self._draft or Draft(), None
        return draft
