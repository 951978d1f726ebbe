"""The run context: per-run facts the steps cannot read from state or change, the ledger, the draft for the verifier."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from boundloop.domain.conversation import Turn
from boundloop.domain.usage import Usage
from boundloop.graph.draft_hold import DraftHold
from boundloop.graph.ledger import Ledger
from boundloop.graph.reasoner import Reasoner
from boundloop.policies.budget import BudgetLimits, CallBudget, call_budget
from boundloop.policies.deadline import CLOSING_GRACE_SECONDS, Deadline
from boundloop.policies.entitlements import Principal
from boundloop.policies.model_breaker import ModelBreaker
from boundloop.retrieval.search import EntitledSearcher


@dataclass(frozen=True)
class RunContext:
    """Who the run acts for, what it may spend, the trimmed backend and reasoner it uses, and what it has spent.

    One context serves one run: its ledger starts at zero and its draft hold empty when the context is made.
    """

    principal: Principal
    searcher: EntitledSearcher
    reasoner: Reasoner
    limits: BudgetLimits = field(default_factory=BudgetLimits)
    ledger: Ledger = field(default_factory=Ledger)
    draft: DraftHold = field(default_factory=DraftHold)
    """The synthesiser's claims until the verifier takes them: unverified text is never in the state."""
    history: tuple[Turn, ...] | None = None
    """The conversation's earlier turns, when the caller keeps them (the runner: one thread per run, turns in the
    run store); None when the thread itself carries them (the LangGraph server: the state's `turns`)."""
    model_breaker: ModelBreaker = field(default_factory=ModelBreaker)
    """Opens when a model call times out or cannot connect: the run's later steps then decide offline at once."""
    cancel: threading.Event = field(default_factory=threading.Event)
    """Set when the run's reader left (a streaming client disconnected): the step under way ends at once, a model
    call in flight is cancelled, and the runner stops the run at its next transition."""

    def usage(self, plus: Usage | None = None) -> Usage:
        """Usage so far, from the ledger (never from the state), plus what a step is about to spend."""
        return self.ledger.usage(plus)

    def deadline(self, closing: bool, now: float) -> Deadline:
        """The hard deadline of a step starting at `now`: the run's time limit, or a small grace for a closing step.

        The grace runs past the limit, or past the step's own start when an earlier step overran, so that the
        evidence read so far still becomes the best grounded answer.
        """
        limit = self.ledger.started_at + self.limits.max_seconds
        return Deadline(max(limit, now) + CLOSING_GRACE_SECONDS if closing else limit, self.ledger.clock,
                        cancel=self.cancel)

    def call_budget(self) -> CallBudget:
        """What the next model call may spend, and whether the run may still call its model."""
        return call_budget(self.usage(), self.limits, self.model_breaker)
