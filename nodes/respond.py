"""Respond: the answer with numbered citations, a fallback list of permitted results, or an abstention."""

from __future__ import annotations

from langgraph.config import get_config

from boundloop.domain.conversation import Turn
from boundloop.domain.models import Citation, Claim, ClaimReading, Evidence, FallbackResult
from boundloop.domain.result import RunResult
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState, question_of
from boundloop.graph.step_update import StepUpdate
from boundloop.policies.instructions import data_sentences
from boundloop.policies.outcome import choose_outcome, relevant_results, shown_conflicts

FALLBACK_SIZE = 5


def _cite(claims: list[Claim], evidence: list[Evidence]) -> tuple[str, list[Claim], list[Citation]]:
    """Number the cited chunks in order of first use and write the answer with [n] markers."""
    by_id = {e.chunk_id: e for e in evidence}
    markers: dict[str, int] = {}
    citations: list[Citation] = []
    parts: list[str] = []
    for claim in claims:
        numbers = []
        for chunk_id in claim.citations:
            if chunk_id not in markers:
                markers[chunk_id] = len(markers) + 1
                e = by_id[chunk_id]
                citations.append(Citation(marker=markers[chunk_id], doc_id=e.doc_id, chunk_id=chunk_id,
                                          title=e.title, page=e.page, sheet=e.sheet))
            numbers.append(markers[chunk_id])
        parts.append(claim.text.rstrip() + " " + "".join(f"[{n}]" for n in numbers))
    return "\n".join(parts), claims, citations


def _ids() -> tuple[str, str]:
    """The run's id and its conversation's, as the caller set them.

    The runner runs each run on a thread of its own and names the conversation; on the LangGraph server the thread
    is the conversation and the server names the run.
    """
    configurable = get_config().get("configurable", {})
    thread = str(configurable.get("thread_id", ""))
    return str(configurable.get("run_id") or thread), str(configurable.get("conversation_id") or thread)


def respond(state: LoopState, context: RunContext) -> StepUpdate:
    """Turns the verified claims into the run's result; the only place failures become user-facing outcomes.

    The result is also the conversation's new turn: what its user is shown, and nothing else, is what later turns
    may lean on.
    """
    evidence = state.get("evidence", [])
    supported = state.get("verified", [])
    understanding = state.get("understanding")
    relevant = relevant_results(question_of(state), evidence) if not supported else []
    status, why = choose_outcome(
        understanding.query_class if understanding else None, supported, evidence, relevant,
        state.get("retrieval_error"), bool(state.get("stop_reason")),
    )
    answer, claims, citations = _cite(supported, evidence) if status == "answered" else ("", [], [])
    ranked = relevant[:FALLBACK_SIZE] if status == "fallback" else []
    assessment = state.get("assessment")
    run_id, conversation_id = _ids()
    result = RunResult(
        run_id=run_id,
        conversation_id=conversation_id,
        status=status,
        complete=not state.get("stop_reason"),
        stop_reason=state.get("stop_reason"),
        standalone_question=question_of(state),
        query_class=understanding.query_class if understanding else "lookup",
        answer=answer if status == "answered" else (why or ""),
        short_answer=state.get("short_answer") if status == "answered" else None,
        claims=claims,
        citations=citations,
        usage=context.usage(),
        abstain_reason=why if status == "abstained" else None,
        fallback_results=[
            FallbackResult(doc_id=e.doc_id, chunk_id=e.chunk_id, title=e.title,
                           snippet=" ".join(data_sentences(e.text))[:240], score=round(e.score, 6))
            for e in ranked
        ],
        conflicts=shown_conflicts(
            (assessment.conflicts if assessment else []) + (state.get("set_aside") or []),
            {c.chunk_id for c in citations} | {e.chunk_id for e in ranked}),
        dropped_claims=state.get("dropped_claims") or 0,
        model_unavailable=context.model_breaker.explanation(),
        reading=[ClaimReading(claim=i, rule=rule) for i, rule in enumerate(state.get("verified_rules") or [])
                 if rule and i < len(claims)],
    )
    # Each field of the result is an output channel of the graph (its output schema is `RunResult`).
    turn = Turn.shown(state["question"], result, state.get("context_chunks", []))
    return StepUpdate({**dict(result), "turns": [turn], "next_step": "end"}, decision=status,
                      reason=why or f"{len(claims)} grounded claims")
