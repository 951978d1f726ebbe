"""The LLM reasoner: structured decisions from OpenAI, Azure OpenAI or an OpenAI-compatible server, within budget."""

from __future__ import annotations

from boundloop.reasoners.llm.chat_models import build_chat_model
from boundloop.reasoners.llm.prompts import PROMPT_VERSION
from boundloop.reasoners.llm.reasoner import LLMReasoner
from boundloop.reasoners.llm.settings import LLMSettings

__all__ = ["LLMReasoner", "LLMSettings", "PROMPT_VERSION", "build_llm_reasoner"]


def build_llm_reasoner(provider: str, model: str) -> LLMReasoner:
    """The reasoner for `BOUNDLOOP_MODEL=<provider>:<model>`, tuned by the BOUNDLOOP_* settings in the environment."""
    settings = LLMSettings.from_env(provider, model)
    return LLMReasoner(build_chat_model(settings), settings)
