"""The reasoner interface: the decisions of the loop, made offline or by a model.

A reasoner chooses what to ask for and how to phrase the answer. It never sees the principal or the access filter,
and it never decides whether the run may go on (the governor) or whether a claim ships (the verifier).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from boundloop.domain.conversation import Resolution, Turn
from boundloop.domain.models import Assessment, Draft, Evidence, Plan, Refinement, SubQuery, Understanding, Verdict
from boundloop.domain.usage import StopReason
from boundloop.policies.budget import CallBudget

T = TypeVar("T")


@dataclass(frozen=True)
class StepResult(Generic[T]):
    """A decision, the tokens it cost, and a note for the trace (e.g. a model failure and its fallback).

    `stopped` is the limit that cut the step short, if one did: a synthesis truncated to the tokens left, a
    judgement skipped; the run is then incomplete.
    """

    value: T
    tokens: int = 0
    note: str = ""
    stopped: StopReason | None = None
    rules: tuple[str, ...] = ()
    """For a draft: the named rule that read each claim, in order (none: the reasoner's own name stands for each)."""


class Reasoner(Protocol):
    """The decisions of each step. Evaluate and refine stay cheap so that stopping early is the common case."""

    name: str
    prompt_version: str

    def resolve(self, question: str, turns: list[Turn], budget: CallBudget) -> StepResult[Resolution]:
        """`question` made to stand alone from the earlier `turns` (oldest first, each as its user was shown it)."""
        ...

    def understand(self, question: str, budget: CallBudget) -> StepResult[Understanding]: ...

    def plan(self, question: str, understanding: Understanding, budget: CallBudget) -> StepResult[Plan]: ...

    def evaluate(
        self, question: str, understanding: Understanding, subqueries: list[SubQuery], evidence: list[Evidence]
    ) -> StepResult[Assessment]: ...

    def refine(
        self, question: str, understanding: Understanding, subqueries: list[SubQuery], evidence: list[Evidence],
        assessment: Assessment, hop: int,
    ) -> StepResult[Refinement]: ...

    def synthesise(
        self, question: str, understanding: Understanding, evidence: list[Evidence], assessment: Assessment | None,
        budget: CallBudget,
    ) -> StepResult[Draft]: ...

    def judge(self, question: str, verdicts: list[Verdict], evidence: list[Evidence], budget: CallBudget
              ) -> StepResult[list[Verdict]]: ...
