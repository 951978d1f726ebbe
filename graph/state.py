"""The loop's state, and its narrow public input (the output is `domain.result.RunResult`).

The state holds what the reasoning steps may see: the question, the conversation's earlier turns as their user was
shown them, and what the trimmed backend returned. It never holds the principal, the limits, the access filter or the
usage counters; those live in the run context.
"""

from __future__ import annotations

from typing import Annotated

from typing_extensions import TypedDict  # pydantic builds JSON schemas (Studio, /schemas) only from this one on 3.11

from boundloop.domain.conversation import Turn
from boundloop.domain.models import Assessment, Claim, Conflict, Evidence, SubQuery, Understanding
from boundloop.domain.steps import NextStep
from boundloop.domain.trace import Span
from boundloop.domain.usage import StopReason
from boundloop.graph.reducers import add_turns, append, merge_evidence, merge_subqueries


class LoopInput(TypedDict):
    """What a caller sends: a question and nothing else."""

    question: str


class LoopState(TypedDict, total=False):
    """Everything the steps share."""

    question: str
    """The question, as asked."""
    standalone_question: str
    """The question as the loop answers it: a follow-up made to stand alone from the earlier turns (resolve)."""
    context_chunks: list[str]
    """What the earlier turns the standalone question took words from showed; the standalone question shows it
    again, so whoever may no longer read one of these chunks no longer sees this turn."""
    turns: Annotated[list[Turn], add_turns]
    """The conversation so far, each turn as its user was shown it (the last 50). The one key a new question on the
    same thread keeps (the LangGraph server: a thread is a conversation); `intake` clears every other."""
    understanding: Understanding
    """Question class, entities and expected answer type."""
    subqueries: Annotated[list[SubQuery], merge_subqueries]
    """Every search planned so far (plan and refinements)."""
    executed: Annotated[list[str], append]
    """Ids of the sub-queries already run."""
    evidence: Annotated[list[Evidence], merge_evidence]
    """Permitted chunks returned so far, deduplicated."""
    assessment: Assessment
    """The latest evaluation: coverage, conflicts and the gap."""
    verified: list[Claim]
    """The drafted claims the verifier kept. The draft itself never enters the state (`graph.draft_hold`): a client
    reading the thread's state, its history or a stream sees only what passed."""
    verified_rules: list[str]
    """The named rule that read each kept claim, in the order of `verified` (a model's draft: the model's name)."""
    short_answer: str | None
    """The value the question asks for, kept by the verifier because a kept claim's chunks state it."""
    set_aside: list[Conflict]
    """Values the synthesiser set aside (those of a superseded document, say), passed on by the verifier."""
    dropped_claims: int
    """How many drafted claims the verifier dropped: a count, never their text."""
    next_step: NextStep
    """The step the last node asked for; the governor decides whether it runs."""
    retrieval_error: str
    """Set when the search backend failed; the run then falls back or abstains instead of crashing."""
    stop_reason: StopReason | None
    """The limit that closed the run, set by the governor; the run then takes the closing path."""
    spans: Annotated[list[Span], append]
    """One record per transition: node, start, duration, budget used after it, decision and reason."""


def question_of(state: LoopState) -> str:
    """The question the steps work on: the standalone question once resolve has run, else the question as asked."""
    return state.get("standalone_question") or state["question"]
