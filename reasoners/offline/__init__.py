"""The offline, deterministic reasoner: no API key, no network, the default and the safety net."""

from __future__ import annotations

from functools import cached_property
from typing import Any, TypeVar

from boundloop.domain.conversation import Resolution, Turn
from boundloop.domain.models import (
    Assessment,
    Draft,
    Evidence,
    Plan,
    Refinement,
    SubQuery,
    Understanding,
    Verdict,
)
from boundloop.graph.reasoner import StepResult
from boundloop.policies.budget import BudgetExhausted, CallBudget, estimate_tokens
from boundloop.reasoners.offline import assess, classify, drafting, extractive, followups, planning
from boundloop.reasoners.offline.case import Decision
from boundloop.reasoners.offline.clauses import requested
from boundloop.reasoners.offline.similarity import EncoderSimilarity
from boundloop.reasoners.offline.structure_notes import structure_note

T = TypeVar("T")


def _charged(value: T, budget: CallBudget, *texts: str) -> StepResult[T]:
    """A decision with the estimated tokens of what it read and wrote, if they fit in the budget.

    Counted like a model call's, from the first step on, so no run passes the token limit whatever its reasoner.
    """
    tokens = estimate_tokens(*texts)
    if not budget.allows(tokens):
        raise BudgetExhausted("tokens")
    return StepResult(value, tokens=tokens)


def _how(decision: Decision) -> str:
    """The trace's account of a reading: the rules that read the claims, or the check that rejected the best one."""
    if decision.draft.claims:
        return "read by rule " + ", ".join(dict.fromkeys(decision.rules)) + (f"; {decision.note}" if decision.note
                                                                            else "")
    return f"no rule answered; best candidate rejected by {decision.rejected}" if decision.rejected else \
        "no rule answered"


class OfflineReasoner:
    """Heuristic decisions, deterministic and fast.

    Tokens are estimates of the text each step reads and writes (no model is called), so budgets and reports
    compare like for like with the LLM reasoner.
    """

    name = "offline"
    prompt_version = "offline-v2"

    def __init__(self, encoder: Any = None, answerability_model: bool = True) -> None:
        """Read with `encoder` (MiniLM, loaded on first use if not given) and the answerability model.

        Without the model, coverage alone decides whether a reading answers: how its training data is gathered.
        """
        self._encoder, self._use_model = encoder, answerability_model

    @cached_property
    def similarity(self) -> EncoderSimilarity | None:
        """The reader's MiniLM similarity, or None to read by coverage alone; subclasses need not call __init__."""
        return EncoderSimilarity(getattr(self, "_encoder", None)) if getattr(self, "_use_model", True) else None

    def resolve(self, question: str, turns: list[Turn], budget: CallBudget) -> StepResult[Resolution]:
        """Pronouns and ellipsis filled in from the earlier questions and their short answers (`followups`)."""
        if not turns:
            return StepResult(Resolution(standalone_question=question, how="no earlier turns"))
        resolution = followups.resolve(question, turns)
        read = [f"{t.standalone_question} {t.short_answer or ''}" for t in turns]
        return _charged(resolution, budget, question, *read, resolution.standalone_question)

    def understand(self, question: str, budget: CallBudget) -> StepResult[Understanding]:
        understanding = classify.classify(requested(question))
        return _charged(understanding, budget, question, understanding.model_dump_json())

    def plan(self, question: str, understanding: Understanding, budget: CallBudget) -> StepResult[Plan]:
        plan = planning.plan(requested(question), understanding)  # 'remind me' is nothing to search for
        return _charged(plan, budget, question, understanding.model_dump_json(), plan.model_dump_json())

    def evaluate(self, question: str, understanding: Understanding, subqueries: list[SubQuery],
                 evidence: list[Evidence]) -> StepResult[Assessment]:
        return StepResult(assess.evaluate(requested(question), understanding, subqueries, evidence, self.similarity))

    def refine(self, question: str, understanding: Understanding, subqueries: list[SubQuery],
               evidence: list[Evidence], assessment: Assessment, hop: int) -> StepResult[Refinement]:
        return StepResult(planning.refine(requested(question), subqueries, assessment, hop))

    def synthesise(self, question: str, understanding: Understanding, evidence: list[Evidence],
                   assessment: Assessment | None, budget: CallBudget) -> StepResult[Draft]:
        """Reads the best passages that fit in the tokens left (all of them, mostly) and keeps the claims that fit."""
        read = sorted(evidence, key=lambda e: -e.score)[: drafting.MAX_EVIDENCE]
        full = len(read)
        while read and not budget.allows(estimate_tokens(question, *(e.text for e in read))):
            read = read[:-1]
        shown = evidence if len(read) == full else read  # the extract reads the best passages itself
        decision = extractive.read_answer(question, understanding, shown, self.similarity, passages=True) if read else \
            Decision(Draft(), rejected="no passage fits in the tokens left")
        draft, claims = decision.draft, list(decision.draft.claims)
        cost = estimate_tokens(question, *(e.text for e in read)) if read else 0
        while claims and not budget.allows(cost + estimate_tokens(*(c.text for c in claims))):
            claims.pop()
        tokens = cost + (estimate_tokens(*(c.text for c in claims)) if claims else 0)
        how = _how(decision)
        if structure := structure_note(decision.draft, read):  # no structure, a table without headers, a date unread
            how = f"{how}; units: {structure}"
        if len(read) == full and len(claims) == len(draft.claims):
            return StepResult(draft, tokens=tokens, note=how, rules=decision.rules)
        note = f"read {len(read)} of {full} passages and kept {len(claims)} claims: the tokens left ran out; {how}"
        kept = Draft(claims=claims, short_answer=draft.short_answer if claims else None, conflicts=draft.conflicts)
        return StepResult(kept, tokens=tokens, note=note, stopped="tokens", rules=decision.rules[:len(claims)])

    def judge(self, question: str, verdicts: list[Verdict], evidence: list[Evidence],
              budget: CallBudget) -> StepResult[list[Verdict]]:
        """The offline grounding judgement is the verification policy itself; nothing to add."""
        return StepResult(verdicts)
