"""The HTTP contract: request and response bodies. Unknown fields are refused, in both directions."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from boundloop.domain.feedback import Feedback
from boundloop.domain.result import RunResult
from boundloop.domain.trace import Span
from boundloop.domain.usage import Usage
from boundloop.loop.runner import MAX_QUESTION_CHARS
from boundloop.policies.limits import Bound
from boundloop.retrieval.chunk_markdown import MAX_MARKDOWN_CHARS

Question = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_QUESTION_CHARS)]
ID_PATTERN = r"^[0-9a-f]{32}$"
"""A run's or a conversation's id: 32 lower-case hex digits."""


class Strict(BaseModel):
    """Every model of the API: unknown fields are an error, never silently dropped."""

    model_config = ConfigDict(extra="forbid")


class AskRequest(Strict):
    """A question; the user comes from the credential, so a body naming one is refused."""

    question: Question = Field(description=f"The question, 1 to {MAX_QUESTION_CHARS} characters.")
    conversation_id: str | None = Field(
        default=None, pattern=ID_PATTERN,
        description="Continue this conversation of yours (the question may then be a follow-up of its earlier "
                    "turns); omit it to start a new one. Another user's conversation, like an unknown one, is a 404.")


class RunView(Strict):
    """A run of the caller's: finished with its result, still running, interrupted by a crash, or cancelled."""

    run_id: str
    finished: bool
    interrupted: bool = Field(default=False, description="The process running it stopped before it finished.")
    cancelled: bool = Field(default=False, description="Its stream's reader left before the end, so it was stopped.")
    result: RunResult | None = None
    feedback: Feedback | None = Field(default=None, description="The caller's latest rating of the answer, if any.")


class FeedbackView(Feedback):
    """The rating as stored with the run."""

    run_id: str


class ConversationSummary(Strict):
    """One of the caller's conversations."""

    conversation_id: str
    title: str = Field(description="Its first question, as asked.")
    created_at: datetime
    updated_at: datetime = Field(description="When its latest turn was asked.")
    turns: int = Field(description="How many turns it has kept (older ones go with the run retention).")


class ConversationPage(Strict):
    """The caller's conversations, most recently updated first."""

    conversations: list[ConversationSummary]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")


class ConversationTurn(Strict):
    """One turn: what was asked and what the asker was shown."""

    run_id: str
    question: str = Field(description="The question as asked.")
    standalone_question: str | None = Field(description="The question as the loop answered it (a follow-up "
                                                        "resolved); null while it runs or when withheld.")
    answer: str | None = Field(description="The answer with [n] markers, or why there is none; null while it runs, "
                                           "when interrupted or cancelled, or when withheld.")
    short_answer: str | None
    status: Literal["answered", "abstained", "fallback", "running", "interrupted", "cancelled"]
    time: datetime = Field(description="When it was asked.")
    withheld: bool = Field(default=False, description="It showed documents you can no longer read: only your "
                                                      "question is shown.")


class ConversationView(Strict):
    """A conversation of the caller's with its turns, oldest first. Only the last 50 are a follow-up's context."""

    conversation_id: str
    title: str
    created_at: datetime
    updated_at: datetime
    turns: list[ConversationTurn]


class LimitView(Strict):
    """How one per-run limit is named and shown: what a client needs to draw it beside the usage."""

    usage: str = Field(description="The field of `usage` (and of `limits`) it bounds.")
    stop_reason: str = Field(description="The `stop_reason` of a run it closes.")
    label: str = Field(description="Its short name: 'Searches'.")
    named: str = Field(description="The limit in a sentence: 'the search limit'.")
    one: str = Field(description="What one of its usage is called ('search'), or its unit ('ms').")
    many: str = Field(description="What several are called ('searches'), or its unit ('ms').")
    unit: str = Field(description="The unit of its setting when not a count: 's' for the time limit (its usage "
                                  "is in milliseconds).")

    @classmethod
    def of(cls, bound: Bound) -> LimitView:
        limit = bound.limit
        return cls(usage=limit.usage, stop_reason=limit.stop_reason, label=limit.label, named=limit.named,
                   one=limit.words[0], many=limit.words[1], unit=limit.unit)


class TraceResponse(Strict):
    """Every transition of one run, in order, and the deployment's per-run limits with their names."""

    run_id: str
    spans: list[Span]
    limits: Usage = Field(description="The limits in force now, as the usage that reaches each; a run is held to "
                                      "those in force when it ran.")
    budget: list[LimitView] = Field(description="Each limit's names, in the order to show them.")


class Passage(Strict):
    """The text a citation marker of the caller's own run points to."""

    marker: int
    doc_id: str
    chunk_id: str
    title: str
    page: int | None
    sheet: str | None = Field(default=None, description="The workbook sheet the passage is on; null otherwise.")
    text: str = Field(description="The passage as the run read it.")
    markdown: str = Field(
        default="", max_length=MAX_MARKDOWN_CHARS,
        description="The passage's source lines as written (Markdown: headings, lists, tables), for display only; "
                    "'' when the index holds none (chunks stored before it kept them) or the text changed since.",
    )


class PassagesResponse(Strict):
    """The cited passages of one finished run: only chunks its answer cites and the caller may still read."""

    run_id: str
    passages: list[Passage]


class Me(Strict):
    """Who the credential belongs to."""

    user: str
    display_name: str


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
    comments_stripped: int = Field(default=0, description="HTML comments (<!-- ... -->) dropped: not content.")
    problems: list[IngestProblem]
    no_acl_ids: list[str] = Field(default=[], description="Documents without an ACL: visible to nobody.")
    empty_acl_ids: list[str] = Field(default=[], description="Documents whose ACL is an explicit empty list.")
    stale: int = Field(default=0, description="Stale documents left in the index (CLI folder sync only).")
    stale_ids: list[str] = Field(default=[], description="Their ids.")


class Health(Strict):
    """Liveness, the checkpoint store in use, and why the service is degraded (503) if it is."""

    status: Literal["ok", "degraded"]
    checkpoints: Literal["sqlite", "postgres"]
    reasons: list[str] = Field(default_factory=list, description="What cannot write: the run store, the index.")


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
