"""One structured model call inside a step's budget: checked before sending, bounded in time, counted, repaired once.

Before sending: the run's model breaker closed (a run whose model timed out or could not connect sends nothing
more), more than `MIN_CALL_SECONDS` for the call, and the prompt's estimate plus the step's completion cap within
the tokens left (otherwise `BudgetExhausted("tokens")`, and nothing is sent). The call's timeout is its share of the
time left (`LLMSettings.call_seconds`), so a model that never answers leaves the offline fallback the rest. A call
that times out or cannot connect opens the breaker. Tokens come from the provider's usage metadata, else an
estimate. Output that does not fit the schema gets one repair attempt, if the budget still allows it. Any other
failure returns a `Reply` without a value and a short description; no exception other than `BudgetExhausted`
leaves `ask`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Generic, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config
from langchain_openai.chat_models.base import BaseChatOpenAI
from langgraph.constants import TAG_NOSTREAM
from pydantic import BaseModel

from boundloop.policies.budget import BudgetExhausted, CallBudget, estimate_tokens
from boundloop.reasoners.llm import failures
from boundloop.reasoners.llm.deadline import run_within
from boundloop.reasoners.llm.messages import StepMessages
from boundloop.reasoners.llm.settings import LLMSettings, Step

M = TypeVar("M", bound=BaseModel)
MIN_CALL_SECONDS = 0.05


@dataclass(frozen=True)
class Reply(Generic[M]):
    """The parsed value (None on failure), the tokens spent on it, and what went wrong or was done to get it."""

    value: M | None
    tokens: int
    failure: str = ""
    repaired: bool = False
    sent: bool = True
    tripped: bool = False
    """This call found the model unavailable and opened the run's breaker: no later step calls it."""


@lru_cache(maxsize=32)
def schema_tokens(schema: type[BaseModel]) -> int:
    """The schema is sent too (as a tool or a response format), so it counts in the estimate."""
    return estimate_tokens(json.dumps(schema.model_json_schema()))


def usage_tokens(raw: object) -> int | None:
    usage = getattr(raw, "usage_metadata", None) if isinstance(raw, AIMessage) else None
    return int(usage["total_tokens"]) if usage and usage.get("total_tokens") is not None else None


class StructuredCaller:
    """Sends a step's messages to the chat model with `with_structured_output(schema, include_raw=True)`."""

    def __init__(self, model: BaseChatModel, settings: LLMSettings, messages: StepMessages,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.model = model
        self.settings = settings
        self.messages = messages
        self.clock = clock
        self._runnables: dict[tuple[type[BaseModel], int], Runnable[Any, Any]] = {}

    def _structured(self, schema: type[M], cap: int) -> Runnable[Any, Any]:
        """Built once per schema and cap (building converts the schema, which costs milliseconds).

        The deadline is not a client option: `run_within` cancels the call when the time left is up.
        """
        key = (schema, cap)
        if key not in self._runnables:
            options: dict[str, Any] = {"method": self.settings.method, "include_raw": True}
            if isinstance(self.model, BaseChatOpenAI):  # the completion cap reaches the OpenAI client this way
                options["max_completion_tokens"] = cap  # the name both ChatOpenAI and AzureChatOpenAI send
            self._runnables[key] = self.model.with_structured_output(schema, **options)
        return self._runnables[key]

    def _prompt(self, schema: type[M], messages: list[BaseMessage]) -> list[BaseMessage]:
        if self.settings.method != "json_mode":
            return messages
        hint = self.messages.json_mode(json.dumps(schema.model_json_schema()))
        return [SystemMessage(f"{messages[0].content}\n\n{hint}"), *messages[1:]]

    def _estimate(self, schema: type[M], messages: list[BaseMessage], cap: int) -> int:
        return estimate_tokens(*(str(m.content) for m in messages)) + schema_tokens(schema) + cap

    def _once(self, step: Step, schema: type[M], messages: list[BaseMessage], seconds: float,
              cap: int) -> tuple[Reply[M], BaseException | None]:
        """One call; on failure also the exception, so the caller can decide on a repair."""
        prompt_estimate = self._estimate(schema, messages, 0)
        config: RunnableConfig = {  # the node's callbacks, so traces nest the call under its step
            "callbacks": ensure_config().get("callbacks"), "run_name": f"boundloop.{step}",
            "metadata": {"prompt_version": self.messages.prompts.version},
            # kept out of LangGraph's `messages` stream mode: a synthesise reply is an unverified draft
            "tags": [TAG_NOSTREAM],
        }
        try:
            out = run_within(seconds, self._structured(schema, cap).ainvoke(messages, config=config))
        except Exception as exc:  # the model boundary: every failure becomes a description and a fallback
            failure = failures.describe(exc)
            # no usage comes back: a timed-out request may still be processed (and billed), output the SDK could
            # not parse was generated (up to the cap); a request the server refused or rejected costs nothing
            spent = {"timeout": prompt_estimate, failures.UNPARSEABLE: prompt_estimate + cap}.get(failure, 0)
            return Reply(None, spent, failure), exc
        raw, parsed, error = out.get("raw"), out.get("parsed"), out.get("parsing_error")
        tokens = usage_tokens(raw)
        if tokens is None:
            tokens = prompt_estimate + estimate_tokens(str(getattr(raw, "content", "")))
        if error is not None or not isinstance(parsed, schema):
            problem = error or ValueError("the reply has no structured output")
            return Reply(None, tokens, failures.UNPARSEABLE), problem
        return Reply(parsed, tokens), None

    def ask(self, step: Step, schema: type[M], messages: list[BaseMessage], budget: CallBudget) -> Reply[M]:
        """The step's decision from the model, or a Reply without value saying why not (see the module doc)."""
        started = self.clock()
        if budget.breaker.open:
            return Reply(None, 0, f"unavailable since {budget.breaker.step}: {budget.breaker.failure}", sent=False)
        cap = self.settings.output_tokens(step)
        messages = self._prompt(schema, messages)
        if not budget.allows(self._estimate(schema, messages, cap)):
            raise BudgetExhausted("tokens")
        left = self._left(budget, started)
        seconds = self.settings.call_seconds(left)
        if seconds <= MIN_CALL_SECONDS:
            return Reply(None, 0, f"{max(left, 0.0):.2f} s left", sent=False)
        first, problem = self._once(step, schema, messages, seconds, cap)
        if first.value is not None or problem is None or first.failure != failures.UNPARSEABLE:
            return self._checked(step, first, budget)
        repair = [*messages, self.messages.repair(failures.repair_hint(problem))]
        seconds = self.settings.call_seconds(self._left(budget, started))
        if seconds <= MIN_CALL_SECONDS or not budget.allows(first.tokens + self._estimate(schema, repair, cap)):
            return Reply(None, first.tokens, f"{failures.UNPARSEABLE}; no budget left to repair")
        second = self._checked(step, self._once(step, schema, repair, seconds, cap)[0], budget)
        failure = f"{second.failure} after one repair" if second.value is None else ""
        return Reply(second.value, first.tokens + second.tokens, failure, repaired=True, tripped=second.tripped)

    def _left(self, budget: CallBudget, started: float) -> float:
        return budget.seconds - (self.clock() - started)

    @staticmethod
    def _checked(step: Step, reply: Reply[M], budget: CallBudget) -> Reply[M]:
        """The reply; if its call found the model unreachable, the run's breaker opens and the reply says so."""
        if reply.value is not None or reply.failure not in failures.UNREACHABLE:
            return reply
        budget.breaker.trip(step, reply.failure)
        return replace(reply, tripped=True)
