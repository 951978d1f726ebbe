"""The LLM reasoner's settings: which model, how to reach it, and per-call caps, read from the environment."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from boundloop.policies.errors import BoundloopError
from boundloop.policies.settings import Settings, settings

Provider = Literal["openai", "azure_openai"]
Method = Literal["json_schema", "function_calling", "json_mode"]
Step = Literal["rewrite", "understand", "plan", "synthesise", "judge"]

# Caps on each call's completion. The pre-send token check counts the cap in full, so a call that passes the check
# cannot push the run past `BOUNDLOOP_MAX_TOKENS` however long the model's reply would have been.
OUTPUT_TOKENS: dict[Step, int] = {"rewrite": 200, "understand": 300, "plan": 600, "synthesise": 1500, "judge": 600}
CALL_SHARE: float = Settings.model_fields["llm_call_share"].default
"""The share of the run's time left that one model call may wait. A model that never answers then costs a run at most
this share of its time (the first such call opens the run's breaker), and the offline fallback has the rest."""


class LLMSettings(BaseModel):
    """How the LLM reasoner reaches its chat model. Deployment settings only, never from a request."""

    provider: Provider = Field(description="openai (also any OpenAI-compatible server) or azure_openai.")
    model: str = Field(min_length=1, description="Model name, or the Azure OpenAI deployment name.")
    base_url: str | None = Field(
        default=None, description="OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp); BOUNDLOOP_OPENAI_BASE_URL."
    )
    method: Method = Field(
        default="json_schema",
        description="Structured-output method passed to with_structured_output; BOUNDLOOP_LLM_METHOD.",
    )
    temperature: float | None = Field(
        default=None, ge=0.0, le=2.0, description="Sampling temperature (provider default if unset)."
    )
    call_timeout: float | None = Field(
        default=None, gt=0.0,
        description="Cap in seconds on one model call, besides its share of the time left; BOUNDLOOP_LLM_TIMEOUT.",
    )
    call_share: float = Field(
        default=CALL_SHARE, gt=0.0, le=1.0,
        description="Share of the run's time left one model call may wait (0 to 1); BOUNDLOOP_LLM_CALL_SHARE.",
    )
    max_output_tokens: int | None = Field(
        default=None, ge=16, description="One completion cap for every step instead of OUTPUT_TOKENS."
    )
    prompts_path: str | None = Field(default=None, description="YAML/JSON file overriding named prompt templates.")

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.model}"

    def output_tokens(self, step: Step) -> int:
        return self.max_output_tokens or OUTPUT_TOKENS[step]

    def call_seconds(self, left: float) -> float:
        """How long the next call may wait: its share of the `left` seconds, and at most `call_timeout`.

        With 18 s left and the defaults: 7.2 s, so a hanging model leaves the offline fallback 10.8 s.
        """
        seconds = max(left, 0.0) * self.call_share
        return min(seconds, self.call_timeout) if self.call_timeout else seconds

    @classmethod
    def from_env(cls, provider: str, model: str, configured: Settings | None = None) -> LLMSettings:
        """Settings for `provider:model` (from BOUNDLOOP_MODEL) plus the BOUNDLOOP_* settings that tune it."""
        chosen = configured or settings()  # each bad value is a one-line error naming its variable
        try:
            return cls.model_validate({
                "provider": provider,
                "model": model,
                "base_url": chosen.openai_base_url,
                "method": chosen.llm_method,
                "temperature": chosen.llm_temperature,
                "call_timeout": chosen.llm_timeout,
                "call_share": chosen.llm_call_share,
                "max_output_tokens": chosen.llm_max_output_tokens,
                "prompts_path": chosen.prompts,
            })
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            raise BoundloopError(f"invalid LLM reasoner settings: {problems}") from None
