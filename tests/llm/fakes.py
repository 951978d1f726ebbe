"""A small scripted chat model that supports `with_structured_output` (through tool binding) and usage metadata."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import httpx
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from boundloop.domain.models import Claim, Evidence, Understanding, Verdict
from boundloop.policies.budget import CallBudget
from boundloop.reasoners.llm import LLMReasoner, LLMSettings

REQUEST = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
"""A real request for building openai's errors the way the library documents (they read its headers)."""


class ScriptedChat(BaseChatModel):
    """Each call takes the next script item: a dict is the structured answer (a tool call of the bound schema),
    a str is plain text (no structured output), an exception is raised. Every reply reports `usage`."""

    script: list[Any] = Field(default_factory=list)
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    delay: float = 0.0
    usage: tuple[int, int] | None = (40, 10)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self.bind(tool_name=convert_to_openai_tool(tools[0])["function"]["name"])

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        self.seen.append(messages)
        item = self.script.pop(0)
        if isinstance(item, BaseException):
            raise item
        usage = None
        if self.usage:
            usage = {"input_tokens": self.usage[0], "output_tokens": self.usage[1],
                     "total_tokens": sum(self.usage)}
        if isinstance(item, dict):
            call = {"name": kwargs.get("tool_name", "unknown"), "args": item, "id": "call-1"}
            message = AIMessage(content="", tool_calls=[call], usage_metadata=usage)
        else:
            message = AIMessage(content=str(item), usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None,
                         **kwargs: Any) -> ChatResult:
        await asyncio.sleep(self.delay)
        return self._generate(messages, stop, None, **kwargs)


def reasoner(chat: ScriptedChat, **settings: Any) -> LLMReasoner:
    return LLMReasoner(chat, LLMSettings(provider="openai", model="scripted", **settings))


def budget(seconds: float = 10.0, tokens: int = 40_000) -> CallBudget:
    return CallBudget(seconds=seconds, tokens=tokens)


def evidence(chunk_id: str, text: str, title: str = "Policy", score: float = 0.5) -> Evidence:
    return Evidence(chunk_id=chunk_id, doc_id=chunk_id.split("#")[0], title=title, text=text, score=score, hop=1,
                    found_by=["q0"])


LOOKUP = Understanding(query_class="lookup", entities=["Head of Finance"], answer_type="person")
EXPENSE = evidence("expense#0", "Expense claims above EUR 5,000 need approval from the Head of Finance.")
ORGCHART = evidence("orgchart#0", "The Head of Finance is Priya Raman.", title="Org chart", score=0.4)


def verdict(text: str, cites: list[str], supported: bool = True) -> Verdict:
    return Verdict(claim=Claim(text=text, citations=cites), supported=supported, reason="" if supported else "offline")
