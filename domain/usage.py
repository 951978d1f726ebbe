"""What a run has spent: one value, added up field by field, and the limits that can close a run.

In the spirit of pydantic-ai's `RunUsage.incr`: `+` adds every field, so a new limit is one field here, one limit
and one check in `policies.budget`, and the node that spends it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

StopReason = Literal["hops", "tokens", "time", "retrieval_calls"]


class Usage(BaseModel):
    """Hops, model tokens, search calls and wall time spent by one run (or by one step)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hops: int = Field(default=0, description="Rounds of retrieval.")
    tokens: int = Field(default=0, description="Model tokens (provider usage, else an estimate).")
    retrieval_calls: int = Field(default=0, description="Search calls.")
    elapsed_ms: int = Field(default=0, description="Wall time since the run started.")

    def __add__(self, other: Usage) -> Usage:
        """The one reducer: every field adds up."""
        return Usage(**{name: getattr(self, name) + getattr(other, name) for name in Usage.model_fields})
