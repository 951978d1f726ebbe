"""Chooses the reasoner from `BOUNDLOOP_MODEL`: `offline` (the default) or a chat model."""

from __future__ import annotations

from boundloop.graph.reasoner import Reasoner
from boundloop.policies.errors import BoundloopError
from boundloop.policies.settings import settings
from boundloop.reasoners.offline import OfflineReasoner


def build_reasoner(spec: str | None = None) -> Reasoner:
    spec = (spec or settings().model).strip()
    if spec == "offline":
        return OfflineReasoner()
    provider, _, model = spec.partition(":")
    if provider in ("openai", "azure_openai") and model.strip():
        from boundloop.reasoners.llm import (
            build_llm_reasoner,  # imported here: the offline default never loads the client
        )

        return build_llm_reasoner(provider, model.strip())
    raise BoundloopError(f"unknown BOUNDLOOP_MODEL {spec!r}: use offline, openai:<model> or azure_openai:<deployment>")
