"""Synthesise: claims with citation markers, drawn only from this run's evidence, handed to the verifier unseen."""

from __future__ import annotations

from boundloop.domain.models import Draft, Understanding
from boundloop.domain.usage import Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate


def synthesise(state: LoopState, context: RunContext) -> StepUpdate:
    """Drafts claims (not prose), each citing the chunks it stands on; runs on the closing path too.

    The draft goes to the run context's hold, not to the state: until the verifier has passed a claim, no client may
    read it, so the state and this step's span say how much was drafted, never what.
    """
    evidence = state.get("evidence", [])
    understanding = state.get("understanding") or Understanding(query_class="lookup")
    if not evidence:
        context.draft.put(Draft())
        return StepUpdate({"next_step": "verify"}, decision="0 claims", reason="no evidence")
    result = context.reasoner.synthesise(
        question_of(state), understanding, evidence, state.get("assessment"), context.call_budget()
    )
    claims, short = result.value.claims, result.value.short_answer
    context.draft.put(result.value, result.rules or (context.reasoner.name,) * len(claims))
    return StepUpdate(
        {"next_step": "verify"},
        decision=f"{len(claims)} claims; " + ("a short answer" if short else "no short answer"),
        reason=result.note or "extracted from the best-supported sentences",
        spent=Usage(tokens=result.tokens),
        stopped=result.stopped,
    )
