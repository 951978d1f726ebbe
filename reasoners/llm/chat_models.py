"""Builds the chat model the settings name: ChatOpenAI (OpenAI or any compatible server) or AzureChatOpenAI.

Credentials come from the environment as langchain-openai reads them (OPENAI_API_KEY; AZURE_OPENAI_ENDPOINT,
AZURE_OPENAI_API_KEY or AZURE_OPENAI_AD_TOKEN, OPENAI_API_VERSION). Retries are off: a retry would spend time the
run does not have, and the offline reasoner is the fallback.
"""

from __future__ import annotations

import os
from typing import Any

import httpx
import openai
from langchain_core.language_models import BaseChatModel
from langchain_openai import AzureChatOpenAI, ChatOpenAI

from boundloop.policies.errors import BoundloopError
from boundloop.reasoners.llm.settings import LLMSettings

PLACEHOLDER_KEY = "EMPTY"
"""Sent to a local server (base URL set, no OPENAI_API_KEY): vLLM, Ollama and llama.cpp accept any key."""
CONNECT_SECONDS = 5.0


def build_chat_model(settings: LLMSettings) -> BaseChatModel:
    """The chat model, with its own async HTTP client: calls run on the reasoner's private event loop."""
    common: dict[str, Any] = {
        "max_retries": 0,
        # every call passes its own timeout (the time left); this only bounds a call made without one
        # a (connect, read, write, pool) tuple, not an httpx.Timeout: openai 3.63 builds its own from it with httpx2
        "timeout": (CONNECT_SECONDS, 60.0, 60.0, 60.0),
        "http_async_client": httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=CONNECT_SECONDS)),
        # whole replies, whatever a LangGraph client streams: a `messages` stream mode made every call stream (its
        # tokens go to no client: the calls are tagged nostream), and a streamed reply may carry no usage
        "disable_streaming": True,
    }
    if settings.temperature is not None:
        common["temperature"] = settings.temperature
    try:
        if settings.provider == "azure_openai":
            return AzureChatOpenAI(azure_deployment=settings.model, model=settings.model, **common)
        if settings.base_url and not os.environ.get("OPENAI_API_KEY"):
            common["api_key"] = PLACEHOLDER_KEY
        return ChatOpenAI(model=settings.model, base_url=settings.base_url, **common)
    except (ValueError, TypeError, openai.OpenAIError) as exc:  # pydantic's ValidationError, missing credentials
        raise BoundloopError(f"cannot configure {settings.spec}: {str(exc).splitlines()[0]}") from None
