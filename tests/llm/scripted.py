"""A plausible model for the stub server: answers each step's schema from the request it was sent.

Understand says lookup; plan searches the whole question; synthesise claims the first sentence of the first
document, citing it, with its first amount or number as the short answer; judge supports every claim. Enough for
whole-loop tests and the benchmark.
"""

from __future__ import annotations

import html
import re
from typing import Any

from tests.llm.openai_stub import Reply, answer, schema_name

_DOCUMENT = re.compile(r'<document id="([^"]*)" title="[^"]*">\n(.*?)\n</document>', re.S)
_QUESTION = re.compile(r"<question>(.*?)</question>", re.S)
_CLAIM = re.compile(r'<claim index="(\d+)"')


def prompt_of(body: dict[str, Any]) -> str:
    """The step's own message (the last user message), where the quoted data is."""
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    return str(users[-1].get("content") or "") if users else ""


def structured(body: dict[str, Any]) -> dict[str, Any]:
    prompt = prompt_of(body)
    name = schema_name(body)
    question = html.unescape(m.group(1)) if (m := _QUESTION.search(prompt)) else ""
    if name == "QuestionUnderstanding":
        return {"query_class": "lookup", "entities": [], "answer_type": "other"}
    if name == "SearchPlan":
        return {"searches": [{"text": question, "mode": "hybrid", "purpose": "the whole question", "k": 5}]}
    if name == "Answer":
        found = _DOCUMENT.search(prompt)
        if not found:
            return {"claims": [], "short_answer": None}
        sentence = re.split(r"(?<=\.)\s+", html.unescape(found.group(2)).strip())[0]
        value = re.search(r"(?:EUR|CAD) [\d,]+|\b\d[\d,.]*\b", sentence)
        return {"claims": [{"text": sentence, "citations": [html.unescape(found.group(1))]}],
                "short_answer": value.group(0) if value else None}
    if name == "Judgement":
        return {"checks": [{"claim": int(i), "supported": True, "reason": ""} for i in _CLAIM.findall(prompt)]}
    raise ValueError(f"no scripted answer for schema {name!r}")


def responder(delay: float = 0.0, prompt_tokens: int = 120, completion_tokens: int = 30) -> Any:
    def reply(body: dict[str, Any]) -> Reply:
        return answer(structured(body), delay=delay, prompt_tokens=prompt_tokens,
                      completion_tokens=completion_tokens)

    return reply


def main() -> None:
    """`python -m tests.llm.scripted [--delay S] [--hang]`: serve until stdin closes; the first line out is the URL."""
    import argparse
    import sys

    from tests.llm.openai_stub import StubServer

    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--hang", action="store_true")
    args = parser.parse_args()
    script = (lambda body: Reply("hang")) if args.hang else responder(delay=args.delay)
    with StubServer(responder=script) as server:
        print(server.url, flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
