"""The HTTP contract: request and response bodies. Unknown fields are refused, in both directions."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from graph.models import Citation, Claim, Conflict, FallbackResult, QueryClass, Status
from graph.runner import MAX_QUESTION_CHARS
from policies.budget import StopReason

Question = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_QUESTION_CHARS)]


class Strict(BaseModel):
    """Every model of the API: unknown fields are an error, never silently dropped."""

    model_config = ConfigDict(extra="forbid")


class AskRequest(Strict):
    """A question; the user comes from the credential, so a body naming one is refused."""

    question: Question = Field(description=f"The question, 1 to {MAX_QUESTION_CHARS} characters.")


class Usage(Strict):
    """What the run spent."""

    hops: int
    tokens: int
    retrieval_calls: int
    elapsed_ms: int


class AskResponse(Strict):
    """The same shape as `boundloop ask --json`."""

    run_id: str
    status: Status
    complete: bool = Field(description="False when a budget limit closed the run early.")
    stop_reason: StopReason | None
    query_class: QueryClass
    answer: str
    short_answer: str | None = Field(
        default=None, description="The value asked for (amount, date, name, code, yes/no); null for explanations."
    )
    claims: list[Claim]
    citations: list[Citation]
    usage: Usage
    abstain_reason: str | None
    fallback_results: list[FallbackResult]
    conflicts: list[Conflict]
    dropped_claims: int


class Span(Strict):
    """One transition of the loop, with the budget used after it."""

    node: str
    start: float = Field(description="Wall-clock start, seconds since the epoch.")
    duration_ms: float
    usage: Usage
    decision: str
    reason: str


class RunView(Strict):
    """A run of the caller's: finished with its result, or still running."""

    run_id: str
    finished: bool
    result: AskResponse | None = None


class TraceResponse(Strict):
    """Every transition of one run, in order."""

    run_id: str
    spans: list[Span]


class IngestProblem(Strict):
    """A line or document that was not ingested, and why."""

    location: str
    message: str


class IngestResponse(Strict):
    """What one ingest changed; it was applied in full."""

    seen: int
    added: int
    updated: int
    unchanged: int
    deleted: int
    chunks_written: int
    no_acl: int
    default_acl_applied: int
    problems: list[IngestProblem]


class Health(Strict):
    """Liveness and the checkpoint store in use."""

    status: Literal["ok"]
    checkpoints: Literal["sqlite", "postgres"]


class ErrorDetail(Strict):
    """One problem with a request."""

    loc: list[str | int] = Field(default_factory=list, description="Where in the request, e.g. ['body', 'question'].")
    msg: str


class ErrorResponse(Strict):
    """Every error answer: a message per problem, never a traceback."""

    detail: str | list[ErrorDetail]


def error_body(detail: str | list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON of an `ErrorResponse`."""
    return ErrorResponse.model_validate({"detail": detail}).model_dump()


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI `responses` entry for error statuses a route may answer with."""
    return {code: {"model": ErrorResponse} for code in codes}
