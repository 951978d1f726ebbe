"""What one eval run records and what it is scored against: the run's outcome and the question's gold."""

from __future__ import annotations

from pydantic import BaseModel, Field

from boundloop.domain.usage import Usage
from boundloop.evals.datasets import EvalQuestion


class EvidenceRef(BaseModel):
    """A chunk the run retrieved, and the hop that first found it."""

    doc_id: str
    chunk_id: str
    hop: int


class ShownDoc(BaseModel):
    """A document the user was shown: a citation of the answer or a fallback result."""

    doc_id: str
    chunk_id: str
    snippet: str = Field(default="", description="Text shown with it (fallback results only).")


class RunRecord(BaseModel):
    """The outcome of one question under one system, as the evaluators see it."""

    status: str = Field(description="answered, abstained or fallback.")
    answer: str = Field(description="The answer text with its [n] markers ('' unless answered).")
    short_answer: str | None = Field(default=None, description="The value asked for, when the run gave one.")
    query_class: str = Field(default="", description="The loop's own reading of the question.")
    stop_reason: str | None = Field(default=None, description="The limit that closed the run, if any.")
    usage: Usage = Field(default_factory=Usage, description="What the run spent, its own clock included.")
    latency_ms: float = Field(default=0.0, description="Wall time of the whole call, measured by the eval.")
    citations: list[ShownDoc] = Field(default_factory=list)
    fallback: list[ShownDoc] = Field(default_factory=list)
    evidence: list[EvidenceRef] = Field(default_factory=list)
    claims_drafted: int = Field(default=0, description="Claims the synthesiser drafted.")
    claims_kept: int = Field(default=0, description="Drafted claims that survived verification.")


class Gold(BaseModel):
    """What a question is scored against; the `outputs` of its LangSmith example."""

    qid: str
    qtype: str
    user: str = Field(description="Who asks, in this setting.")
    answers: list[str] = Field(description="Gold answer and aliases; empty when unanswerable.")
    answerable: bool
    supporting_doc_ids: list[str]
    forbidden_doc_ids: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, question: EvalQuestion, user: str) -> Gold:
        return cls(
            qid=question.qid, qtype=question.qtype or "untyped", user=user, answers=list(question.answers),
            answerable=question.answerable, supporting_doc_ids=list(question.supporting_doc_ids),
            forbidden_doc_ids=list(question.forbidden_doc_ids),
        )
