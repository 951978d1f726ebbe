"""A run's trace: one span per transition, with the budget used after it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from domain.usage import Usage


class Span(BaseModel):
    """One transition of the loop: which node ran, when, for how long, what it decided and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    node: str = Field(description="The node: a step or the governor.")
    start: float = Field(description="Wall-clock start, seconds since the epoch.")
    duration_ms: float = Field(description="How long the node ran.")
    usage: Usage = Field(description="The run's usage after the node.")
    decision: str = Field(description="What the node decided.")
    reason: str = Field(description="Why.")
