"""Synthesise: claims with citation markers, drawn only from this run's evidence."""

from __future__ import annotations

from boundloop.domain.models import Understanding
from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate


def synthesise(state: LoopState, context: RunContext) -> StepUpdate:
    """Drafts claims (not prose), each citing the chunks it stands on; runs on the closing path too."""
    evidence = state.get("evidence", [])
    understanding = state.get("understanding") or Understanding(query_class="lookup")
    if not evidence:
        return StepUpdate({"draft": [], "short_answer": None, "next_step": "verify"}, decision="0 claims",
                          reason="no evidence")
    result = context.reasoner.synthesise(
        question_of(state), understanding, evidence, state.get("assessment"), context.call_budget()
    )
    claims, short = result.value.claims, result.value.short_answer
    return StepUpdate(
        {"draft": claims, "short_answer": short, "draft_conflicts": result.value.conflicts,
         "next_step": "verify"},
        decision=f"{len(claims)} claims; " + (f"short answer {short!r}" if short else "no short answer"),
        reason=result.note or "extracted from the best-supported sentences",
        spent=Usage(tokens=result.tokens),
        stopped=result.stopped,
    )
