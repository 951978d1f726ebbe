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
        self._rules: tuple[str, ...] = ()

    def put(self, draft: Draft, rules: tuple[str, ...] = ()) -> None:
        """Hold the latest draft and the named rule behind each claim (the closing path may synthesise again)."""
        self._draft, self._rules = draft, rules

    def take(self) -> tuple[Draft, tuple[str, ...]]:
        """The draft held and its claims' rules, which leave the hold; an empty draft when there is none.

        A run continued by another process from a checkpoint finds the hold empty: the draft was never written down.
        """
        held, self._draft, self._rules = (self._draft or Draft(), self._rules), None, ()
        return held
