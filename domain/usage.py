"""What a run has spent: one value, added up field by field, and the reasons a limit can close a run.

In the spirit of pydantic-ai's `RunUsage.incr`: `+` adds every field, so a new limit is one field here (what is
spent), one field of `policies.limits.BudgetLimits` (its limit, which declares everything derived from it) and the
node that spends it. The order of the fields is the order the CLI, the page and the reports show them in.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

StopReason = Literal["time", "tokens", "hops", "retrieval_calls", "documents"]
"""The limit that closed a run: each `BudgetLimits` field names its own (checked there against this list)."""


class Usage(BaseModel):
    """Hops, search calls, documents read, model tokens and wall time spent by one run (or by one step)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hops: int = Field(default=0, description="Rounds of retrieval.")
    retrieval_calls: int = Field(default=0, description="Search calls.")
    documents: int = Field(default=0, description="Distinct documents read (their passages taken as evidence).")
    tokens: int = Field(default=0, description="Model tokens (provider usage, else an estimate).")
    elapsed_ms: int = Field(default=0, description="Wall time since the run started.")

    def __add__(self, other: Usage) -> Usage:
        """The one reducer: every field adds up."""
        return Usage(**{name: getattr(self, name) + getattr(other, name) for name in Usage.model_fields})
