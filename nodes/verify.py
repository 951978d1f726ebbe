"""Verify: grounding and safety. Claims the cited evidence does not support are dropped."""

from __future__ import annotations

from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate
from boundloop.policies.verification import check_claims, grounded_short_answer


def verify(state: LoopState, context: RunContext) -> StepUpdate:
    """Applies the verification policy to every claim, then the reasoner's grounding judgement to the survivors."""
    evidence = state.get("evidence", [])
    verdicts = check_claims(state.get("draft", []), evidence)
    tokens, note, stopped = 0, "", None
    if any(v.supported for v in verdicts):
        result = context.reasoner.judge(question_of(state), verdicts, evidence, context.call_budget())
        verdicts, tokens, note, stopped = result.value, result.tokens, result.note, result.stopped
    kept = sum(v.supported for v in verdicts)
    short_answer = grounded_short_answer(state.get("short_answer"), verdicts, evidence)
    dropped = [f"{v.reason}" for v in verdicts if not v.supported]
    return StepUpdate(
        {"verdicts": verdicts, "short_answer": short_answer, "next_step": "respond"},
        decision=f"{kept} kept, {len(dropped)} dropped",
        reason=note or ("; ".join(dropped) if dropped else "all claims grounded"),
        spent=Usage(tokens=tokens),
        stopped=stopped,
    )
