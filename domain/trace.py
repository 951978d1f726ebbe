"""A run's trace: one span per transition, with the budget used after it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from boundloop.domain.usage import Usage


class Span(BaseModel):
    """One transition of the loop: which node ran, when, for how long, what it decided and why."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    node: str
    """The node: a step or the governor."""
    start: float
    """Wall-clock start, seconds since the epoch."""
    duration_ms: float
    """How long the node ran."""
    usage: Usage
    """The run's usage after the node."""
    decision: str
    """What the node decided."""
    reason: str
    """Why."""
