"""The loop's steps and what each may lead to: the one table the governor, the budget policy and the router read.

Every step returns to the governor, which lets the step it asked for run, or sends the run down the closing path
(synthesise, verify, respond) once a limit is reached. Closing steps always run; working steps are refused then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Step = Literal["resolve", "understand", "plan", "retrieve", "evaluate", "refine", "synthesise", "verify", "respond"]
NextStep = Step | Literal["end"]


@dataclass(frozen=True)
class StepRule:
    """Where a step may lead, and whether it belongs to the closing path."""

    next: tuple[NextStep, ...]
    closing: bool = False
    stoppable: bool = True
    """Whether the watchdog may stop the step from outside once it outlives its deadline (`policies/step_watchdog`).
    Only respond is not: it writes the run's outcome from what the state holds and reads no evidence."""


FIRST_STEP: Step = "resolve"  # a follow-up made to stand alone from the conversation's earlier turns
CLOSING_STEP: Step = "synthesise"  # where a run goes once a limit is reached
STEPS: dict[Step, StepRule] = {
    "resolve": StepRule(next=("understand", "synthesise")),  # synthesise: out of tokens already
    "understand": StepRule(next=("plan", "respond", "synthesise")),  # out of scope: respond without searching
    "plan": StepRule(next=("retrieve", "synthesise")),
    "retrieve": StepRule(next=("evaluate",)),
    "evaluate": StepRule(next=("refine",)),
    "refine": StepRule(next=("retrieve", "synthesise")),
    "synthesise": StepRule(next=("verify",), closing=True),
    "verify": StepRule(next=("respond",), closing=True),
    "respond": StepRule(next=("end",), closing=True, stoppable=False),
}


def allowed_after(last: Step | None) -> tuple[NextStep, ...]:
    """The steps that may follow `last`; a run starts with `FIRST_STEP`."""
    return (FIRST_STEP,) if last is None else STEPS[last].next


def is_working(step: NextStep) -> bool:
    """A step the budget may refuse: any step that is not on the closing path (nor the end)."""
    return step in STEPS and not STEPS[step].closing
