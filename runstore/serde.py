"""How checkpoints are serialised: the loop's own records come back as themselves; nothing else is deserialised."""

from __future__ import annotations

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from boundloop.domain import models
from boundloop.domain.conversation import Turn
from boundloop.domain.trace import Span
from boundloop.domain.usage import Usage

# The loop's own records are the only non-builtin types a checkpoint may hold.
CHECKPOINT_TYPES = [
    models.Understanding, models.SubQuery, models.Plan, models.Evidence, models.Coverage, models.Conflict,
    models.Gap, models.Assessment, models.Refinement, models.Claim, models.Draft, models.Verdict, models.Citation,
    models.FallbackResult, models.ClaimReading, Span, Usage, Turn,
]


def checkpoint_serde() -> JsonPlusSerializer:
    """A serializer that restores the loop's models and refuses any other custom type."""
    return JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_TYPES)
