"""Verify: grounding and safety. Claims the cited evidence does not support are dropped, and only the rest is kept."""

from __future__ import annotations

from boundloop.domain.models import Verdict
from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate
from boundloop.policies.verification import check_claims, grounded_short_answer


def _kind(verdict: Verdict) -> str:
    """Why a claim was dropped, without what it said: 'values not in cited evidence: [...]' quotes the claim."""
    return verdict.reason.split(":", 1)[0]


def verify(state: LoopState, context: RunContext) -> StepUpdate:
    """Applies the verification policy to every drafted claim, then the reasoner's grounding judgement to the survivors.

    The draft comes from the run context's hold; the state gets the kept claims, the grounded short answer and the
    number dropped, and the span names why claims were dropped but never quotes one.
    """
    draft, rules = context.draft.take()
    rule_of = dict(zip((c.text for c in draft.claims), rules, strict=False))
    evidence = state.get("evidence", [])
    verdicts = check_claims(draft.claims, evidence)
    tokens, note, stopped = 0, "", None
    if any(v.supported for v in verdicts):
        result = context.reasoner.judge(question_of(state), verdicts, evidence, context.call_budget())
        verdicts, tokens, note, stopped = result.value, result.tokens, result.note, result.stopped
    kept = [v.claim for v in verdicts if v.supported]
    dropped = [_kind(v) for v in verdicts if not v.supported]
    return StepUpdate(
        {"verified": kept, "verified_rules": [rule_of.get(c.text, "") for c in kept],
         "short_answer": grounded_short_answer(draft.short_answer, verdicts, evidence),
         "set_aside": draft.conflicts, "dropped_claims": len(dropped), "next_step": "respond"},
        decision=f"{len(kept)} kept, {len(dropped)} dropped",
        reason=note or ("; ".join(dropped) if dropped else "all claims grounded"),
        spent=Usage(tokens=tokens),
        stopped=stopped,
    )
