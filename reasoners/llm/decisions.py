"""What the model's structured output may change, and what it may not. Pure functions over the parsed output.

The model proposes; these keep its proposals inside the loop's rules: plans get the loop's ids and a bounded size,
drafts cite only the chunks they were shown, and a grounding judgement can drop a claim but never add or restore one.
"""

from __future__ import annotations

import re

from boundloop.domain.conversation import Resolution
from boundloop.domain.models import Claim, Draft, Plan, SubQuery, Verdict
from boundloop.reasoners.llm.messages import MAX_CLAIMS, MAX_SUBQUERIES
from boundloop.reasoners.llm.schemas import Judgement, SearchPlan, StandaloneQuestion

MIN_K, MAX_K = 1, 20  # SubQuery's bounds
MAX_STANDALONE_CHARS = 4000  # the longest question a caller may ask (loop.runner.MAX_QUESTION_CHARS)
_MARKER = re.compile(r"\s*\[([^\[\]]{1,80})\]")


def standalone(rewrite: StandaloneQuestion, question: str, turns: int) -> Resolution | None:
    """The model's rewrite as a resolution, or None when it cannot be used (empty, or longer than a question may be).

    A rewrite the model says needed no earlier turn keeps the question as asked, word for word. One that used them
    may have taken words from any of the `turns` it was shown: it leans on them all.
    """
    text = " ".join(rewrite.standalone_question.split())
    if not text or len(text) > MAX_STANDALONE_CHARS:
        return None
    if not rewrite.follow_up or text == question.strip():
        return Resolution(standalone_question=question, how="the model found it stands alone")
    return Resolution(standalone_question=text, follow_up=True, leaned_on=list(range(turns)),
                      how="rewritten by the model")


def normalise_plan(plan: SearchPlan) -> Plan:
    """The loop's plan from the model's searches, in its order, at most MAX_SUBQUERIES of them.

    Ids are q0, q1, ... as the offline planner numbers them; a repeated search is dropped; k is kept in bounds.
    """
    kept: list[SubQuery] = []
    seen: set[str] = set()
    for search in plan.searches:
        text = " ".join(search.text.split())
        if text and text.lower() not in seen and len(kept) < MAX_SUBQUERIES:
            seen.add(text.lower())
            kept.append(SubQuery(id=f"q{len(kept)}", text=text, mode=search.mode, purpose=search.purpose,
                                 k=min(max(search.k, MIN_K), MAX_K)))
    return Plan(subqueries=kept)


def _strip_markers(text: str, known: set[str]) -> str:
    """Remove citation markers the model wrote into the text ([1], [chunk-id]); the respond step numbers sources."""
    return _MARKER.sub(lambda m: "" if m.group(1).isdigit() or m.group(1) in known else m.group(0), text).strip()


def cited_draft(draft: Draft, shown: set[str]) -> tuple[Draft, int]:
    """Claims citing only chunks the model was shown; the number of citations outside them that were removed."""
    claims: list[Claim] = []
    removed = 0
    for claim in draft.claims[:MAX_CLAIMS]:
        citations = list(dict.fromkeys(c for c in claim.citations if c in shown))
        removed += len(set(claim.citations) - shown)
        text = _strip_markers(claim.text, shown)
        if citations and text:
            claims.append(Claim(text=text, citations=citations))
    return Draft(claims=claims, short_answer=draft.short_answer if claims else None), removed


def apply_judgement(verdicts: list[Verdict], judged: list[int], judgement: Judgement) -> tuple[list[Verdict], int]:
    """The verdicts with each claim the model found unsupported dropped; how many it dropped.

    `judged[i]` is the position in `verdicts` of the claim shown to the model as index i. Checks of other indexes
    are ignored, a claim the model did not check keeps the offline verdict, and a dropped claim stays dropped.
    """
    out = list(verdicts)
    dropped = 0
    for check in judgement.checks:
        if check.supported or not 0 <= check.claim < len(judged):
            continue
        position = judged[check.claim]
        if out[position].supported:
            why = " ".join(check.reason.split())[:200] or "the cited chunks do not state it"
            out[position] = Verdict(claim=out[position].claim, supported=False, reason=f"model judge: {why}")
            dropped += 1
    return out, dropped
