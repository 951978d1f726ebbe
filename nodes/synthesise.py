"""Synthesise: claims with citation markers, drawn only from this run's evidence."""

from __future__ import annotations

from domain.models import Understanding
from graph.context import RunContext
from graph.spans import Outcome
from graph.state import LoopState
from nodes.budget import call_budget


def synthesise(state: LoopState, context: RunContext) -> Outcome:
    """Drafts claims (not prose), each citing the chunks it stands on; runs on the closing path too."""
    evidence = state.get("evidence", [])
    understanding = state.get("understanding") or Understanding(query_class="lookup")
    if not evidence:
        return Outcome({"draft": [], "next_step": "verify"}, decision="0 claims", reason="no evidence")
    result = context.reasoner.synthesise(
        state["question"], understanding, evidence, state.get("assessment"), call_budget(state, context)
    )
    claims = result.value.claims
    return Outcome(
        {"draft": claims, "tokens": result.tokens, "next_step": "verify"},
        decision=f"{len(claims)} claims",
        reason=result.note or "extracted from the best-supported sentences",
    )
