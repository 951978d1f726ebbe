"""A run's result: the one shape the runner, the HTTP service, the LangGraph output, the CLI and the evals all use.

`boundloop ask --json`, `POST /ask`, the LangGraph server's run output and the stored run are this model, field for
field; a new field is one line here (and the step that fills it).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from boundloop.domain.models import Citation, Claim, ClaimReading, Conflict, FallbackResult, QueryClass, Status
from boundloop.domain.usage import StopReason, Usage


class RunResult(BaseModel):
    """An answer with its citations, a fallback list of permitted results, or an honest abstention."""

    model_config = ConfigDict(extra="forbid")

    run_id: str = Field(description="The run; its trace is kept under this id.")
    conversation_id: str | None = Field(
        default=None, description="The conversation this run is a turn of: the one asked to go on, else a new one "
        "(on the LangGraph server, the thread). Null only for runs recorded before conversations existed.")
    status: Status = Field(description="answered, abstained or fallback.")
    complete: bool = Field(description="False when a budget limit closed the run early.")
    stop_reason: StopReason | None = Field(description="The limit that closed the run, if one did.")
    standalone_question: str | None = Field(
        default=None, description="The question as the loop answered it: a follow-up resolved against the "
        "conversation's earlier turns, else the question as asked. Null only for runs recorded before conversations.")
    query_class: QueryClass = Field(description="lookup, multi_hop, comparison, aggregation or out_of_scope.")
    answer: str = Field(description="The claims with [n] citation markers, or why there is no answer.")
    short_answer: str | None = Field(
        default=None, description="The value asked for (an amount with its unit, a date, a name, a code, yes or no), "
        "stated by the cited chunks; null for explanations and when the run did not answer.")
    claims: list[Claim] = Field(description="The grounded claims, each with the chunks it cites.")
    citations: list[Citation] = Field(description="The numbered sources of the answer.")
    usage: Usage = Field(description="What the run spent.")
    abstain_reason: str | None = Field(description="Why the run abstained, if it did.")
    fallback_results: list[FallbackResult] = Field(description="Permitted results offered when no answer is grounded.")
    conflicts: list[Conflict] = Field(description="Evidence that disagrees about a value.")
    dropped_claims: int = Field(description="Drafted claims the verifier dropped.")
    model_unavailable: str | None = Field(
        default=None, description="Why the run stopped calling its model, when a model call timed out or could not "
        "connect (e.g. 'model unavailable (timeout in understand); the rest of the run was decided offline'); "
        "null when the model answered, or when no model is configured.")
    reading: list[ClaimReading] = Field(
        default_factory=list, description="The named rule that read each claim, in the order of `claims`; empty "
        "when nothing was answered.")

    def shown_chunks(self) -> set[str]:
        """Every chunk id the result shows or cites: what its reader must still be allowed to read to see it again."""
        ids = {c.chunk_id for c in self.citations} | {r.chunk_id for r in self.fallback_results}
        ids |= {cid for claim in self.claims for cid in claim.citations}
        return ids | {cid for conflict in self.conflicts for cid in conflict.chunk_ids}
