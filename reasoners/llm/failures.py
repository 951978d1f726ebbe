"""Names a failed model call in a few words for the trace: timeout, connection refused, HTTP 500, unparseable output."""

from __future__ import annotations

import json

import httpx
import openai
from langchain_core.exceptions import OutputParserException
from pydantic import ValidationError

UNPARSEABLE = "unparseable output"
UNREACHABLE = frozenset({"timeout", "connection refused", "connection error"})
"""Failures that say the model cannot be reached now, not that one reply went wrong: after one, the run stops calling
the model (`policies.model_breaker`). An HTTP error or bad output is the model answering, so the next step tries it."""


def _refused(exc: BaseException) -> bool:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ConnectionRefusedError) or "connection refused" in str(current).lower():
            return True
        current = current.__cause__ or current.__context__
    return False


def describe(exc: BaseException) -> str:
    """A short, user-safe name for why a call failed (never the provider's message, which may echo the prompt)."""
    if isinstance(exc, TimeoutError | openai.APITimeoutError | httpx.TimeoutException):
        return "timeout"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}"
    if isinstance(exc, openai.APIConnectionError | httpx.TransportError | OSError):
        return "connection refused" if _refused(exc) else "connection error"
    if isinstance(exc, openai.LengthFinishReasonError):
        return "output cut off at the completion cap"
    if isinstance(exc, openai.ContentFilterFinishReasonError):
        return "output filtered by the provider"
    if isinstance(exc, ValidationError | OutputParserException):
        return UNPARSEABLE
    if isinstance(exc, json.JSONDecodeError):
        return "malformed response"
    return type(exc).__name__


def repair_hint(exc: BaseException, limit: int = 600) -> str:
    """What to tell the model about its invalid output (the validation errors, truncated)."""
    if isinstance(exc, ValidationError):
        text = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'output'}: {e['msg']}" for e in exc.errors()[:8])
    else:
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:limit]
