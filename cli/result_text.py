"""A run's result as the terminal shows it: the short answer, the claims, the sources under them, and a status line."""

from __future__ import annotations

from boundloop.domain.result import RunResult
from boundloop.policies.limits import declared


def print_result(result: RunResult, question: str | None = None) -> None:
    """`question` as asked: when the loop answered a resolved follow-up, the question it answered is shown first."""
    if question is not None and result.standalone_question and result.standalone_question != question.strip():
        print(f"(understood as: {result.standalone_question})\n")
    status = result.status
    if status == "answered":
        if result.short_answer:
            print(f"Answer: {result.short_answer}\n")
        print(result.answer)
        print("\nSources:")
        for c in result.citations:
            page = f", page {c.page}" if c.page else (f", sheet {c.sheet}" if c.sheet else "")
            print(f"  [{c.marker}] {c.title} ({c.chunk_id}{page})")
    elif status == "fallback":
        print(result.answer)
        for n, r in enumerate(result.fallback_results, start=1):
            print(f"  {n}. {r.title} ({r.chunk_id})")
    else:
        print(result.abstain_reason)
    if result.model_unavailable:
        print(f"\n({result.model_unavailable})")
    spent = ", ".join(f"{getattr(result.usage, limit.usage)} {limit.words[1]}" for limit in declared())
    completeness = "complete" if result.complete else f"INCOMPLETE: {result.stop_reason} limit reached"
    conversation = f"; conversation {result.conversation_id}" if result.conversation_id else ""
    print(f"\n{status} ({result.query_class}, {completeness}); {spent}; run {result.run_id}{conversation}")
