"""The messages of each step: the system prompt, then the step's template filled with quoted data."""

from __future__ import annotations

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from boundloop.domain.conversation import Turn
from boundloop.domain.models import Evidence, Understanding, Verdict
from boundloop.reasoners.llm import quoting
from boundloop.reasoners.llm.prompts import Prompts

MAX_DOCUMENTS = 8
"""Synthesis reads the best-scored chunks only: enough for an answer, and a prompt of predictable size."""
MAX_CLAIMS = 6
MAX_SUBQUERIES = 4


def best_evidence(evidence: list[Evidence]) -> list[Evidence]:
    return sorted(evidence, key=lambda e: -e.score)[:MAX_DOCUMENTS]


class StepMessages:
    """Builds the message list of every model-backed step from one set of prompts."""

    def __init__(self, prompts: Prompts) -> None:
        self.prompts = prompts

    def _ask(self, template: str, **values: object) -> list[BaseMessage]:
        return [SystemMessage(self.prompts.render("system")), HumanMessage(self.prompts.render(template, **values))]

    def rewrite(self, question: str, earlier: list[Turn]) -> list[BaseMessage]:
        return self._ask("rewrite", question=quoting.question_text(question), turns=quoting.turns(earlier))

    def understand(self, question: str) -> list[BaseMessage]:
        return self._ask("understand", question=quoting.question_text(question))

    def plan(self, question: str, understanding: Understanding) -> list[BaseMessage]:
        return self._ask(
            "plan", question=quoting.question_text(question), query_class=understanding.query_class,
            entities=quoting.question_text(", ".join(understanding.entities) or "none"),
            answer_type=understanding.answer_type, max_subqueries=MAX_SUBQUERIES,
        )

    def synthesise(self, question: str, understanding: Understanding, shown: list[Evidence]) -> list[BaseMessage]:
        return self._ask(
            "synthesise", question=quoting.question_text(question), query_class=understanding.query_class,
            answer_type=understanding.answer_type, documents=quoting.documents(shown), max_claims=MAX_CLAIMS,
        )

    def judge(self, question: str, verdicts: list[Verdict], evidence: list[Evidence]) -> list[BaseMessage]:
        """The claims to judge, by index, and each chunk they cite, once."""
        by_id = {e.chunk_id: e for e in evidence}
        cited = dict.fromkeys(c for v in verdicts for c in v.claim.citations if c in by_id)
        return self._ask(
            "judge", question=quoting.question_text(question),
            documents=quoting.documents([by_id[c] for c in cited]),
            claims="\n".join(quoting.claim(i, v.claim) for i, v in enumerate(verdicts)),
        )

    def repair(self, error: str) -> HumanMessage:
        return HumanMessage(self.prompts.render("repair", error=error))

    def json_mode(self, schema: str) -> str:
        return self.prompts.render("json_mode", schema=schema)
