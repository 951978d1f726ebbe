"""Verify: grounding and safety. Claims the cited evidence does not support are dropped."""

from __future__ import annotations

from graph.context import RunContext
from graph.spans import Outcome
from graph.state import LoopState
from nodes.budget import call_budget
from policies.verification import check_claims, grounded_short_answer


def verify(state: LoopState, context: RunContext) -> Outcome:
    """Applies the verification policy to every claim, then the reasoner's grounding judgement to the survivors."""
    evidence = state.get("evidence", [])
    verdicts = check_claims(state.get("draft", []), evidence)
    tokens, note = 0, ""
    if any(v.supported for v in verdicts):
        result = context.reasoner.judge(state["question"], verdicts, evidence, call_budget(state, context))
        verdicts, tokens, note = result.value, result.tokens, result.note
    kept = sum(v.supported for v in verdicts)
    short_answer = grounded_short_answer(state.get("short_answer"), verdicts, evidence)
    dropped = [f"{v.reason}" for v in verdicts if not v.supported]
    return Outcome(
        {"verdicts": verdicts, "short_answer": short_answer, "tokens": tokens, "next_step": "respond"},
        decision=f"{kept} kept, {len(dropped)} dropped",
        reason=note or ("; ".join(dropped) if dropped else "all claims grounded"),
    )
