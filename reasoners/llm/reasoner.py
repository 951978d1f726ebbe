"""The LLM reasoner: a chat model makes the understand, plan, synthesise and judge decisions; offline is its safety net.

Evaluate and refine stay offline: they run every hop, and the heuristics are instant and free, so stopping early
stays the cheap, common case. When a model call fails or is not sent, the step takes the offline decision and its
note says why; after a call that timed out or could not connect, the run's later steps do not call the model at all
(the run's breaker, `policies.model_breaker`). Only `BudgetExhausted` leaves a step, and only from understand and
plan (the governor then closes the run); synthesise and judge are the closing path, so there a call that would pass
the token limit is replaced by the offline decision.
"""

from __future__ import annotations

from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel

from boundloop.domain.conversation import Resolution, Turn
from boundloop.domain.models import Assessment, Draft, Evidence, Plan, Refinement, SubQuery, Understanding, Verdict
from boundloop.graph.reasoner import StepResult
from boundloop.policies.budget import BudgetExhausted, CallBudget
from boundloop.reasoners.llm import decisions
from boundloop.reasoners.llm.calls import Reply, StructuredCaller
from boundloop.reasoners.llm.messages import StepMessages, best_evidence
from boundloop.reasoners.llm.prompts import Prompts, load_prompts
from boundloop.reasoners.llm.schemas import Answer, Judgement, QuestionUnderstanding, SearchPlan, StandaloneQuestion
from boundloop.reasoners.llm.settings import LLMSettings
from boundloop.reasoners.offline import OfflineReasoner

T = TypeVar("T")


NOT_SENT: Reply[Any] = Reply(None, 0, "it would pass the token limit", sent=False)


def _fallback(offline: StepResult[T], reply: Reply, extra: str = "") -> StepResult[T]:
    """The offline decision, the tokens the model already spent, and why the model's was not used.

    The offline step was given what the model call left; a call not sent for want of tokens cut the step short.
    """
    why = f"model failed ({reply.failure})" if reply.sent else f"model not called ({reply.failure})"
    stopped = offline.stopped or ("tokens" if reply is NOT_SENT else None)
    then = "; the model is not called again in this run" if reply.tripped else ""
    return StepResult(offline.value, tokens=reply.tokens + offline.tokens,
                      note=f"{why}; offline fallback{extra}{then}", stopped=stopped)


def _repaired(reply: Reply, note: str = "") -> str:
    parts = ["output repaired once"] if reply.repaired else []
    return "; ".join(parts + ([note] if note else []))


class LLMReasoner:
    """Decisions from a LangChain chat model with structured output, inside each step's budget."""

    def __init__(self, model: BaseChatModel, settings: LLMSettings, prompts: Prompts | None = None,
                 offline: OfflineReasoner | None = None) -> None:
        self.prompts = prompts or load_prompts(settings.prompts_path)
        self.name = f"llm:{settings.spec}"
        self.prompt_version = self.prompts.version
        self.offline = offline or OfflineReasoner()
        self.caller = StructuredCaller(model, settings, StepMessages(self.prompts))
        self.messages = self.caller.messages

    def resolve(self, question: str, turns: list[Turn], budget: CallBudget) -> StepResult[Resolution]:
        """The versioned rewrite prompt, with structured output; no call when there is no earlier turn."""
        if not turns:
            return self.offline.resolve(question, turns, budget)
        try:
            reply = self.caller.ask("rewrite", StandaloneQuestion, self.messages.rewrite(question, turns), budget)
        except BudgetExhausted:
            reply = NOT_SENT
        resolution = decisions.standalone(reply.value, question, len(turns)) if reply.value is not None else None
        if resolution is None:
            failed = reply if reply.value is None else Reply(None, reply.tokens, "unusable rewrite")
            return _fallback(self.offline.resolve(question, turns, budget.after(reply.tokens)), failed)
        return StepResult(resolution, tokens=reply.tokens, note=_repaired(reply))

    def understand(self, question: str, budget: CallBudget) -> StepResult[Understanding]:
        reply = self.caller.ask("understand", QuestionUnderstanding, self.messages.understand(question), budget)
        if reply.value is None:
            return _fallback(self.offline.understand(question, budget.after(reply.tokens)), reply)
        return StepResult(reply.value.to_understanding(), tokens=reply.tokens, note=_repaired(reply))

    def plan(self, question: str, understanding: Understanding, budget: CallBudget) -> StepResult[Plan]:
        reply = self.caller.ask("plan", SearchPlan, self.messages.plan(question, understanding), budget)
        plan = decisions.normalise_plan(reply.value) if reply.value is not None else None
        if plan is None or not plan.subqueries:
            failed = reply if reply.value is None else Reply(None, reply.tokens, "empty plan")
            return _fallback(self.offline.plan(question, understanding, budget.after(reply.tokens)), failed)
        return StepResult(plan, tokens=reply.tokens, note=_repaired(reply))

    def evaluate(self, question: str, understanding: Understanding, subqueries: list[SubQuery],
                 evidence: list[Evidence]) -> StepResult[Assessment]:
        return self.offline.evaluate(question, understanding, subqueries, evidence)

    def refine(self, question: str, understanding: Understanding, subqueries: list[SubQuery],
               evidence: list[Evidence], assessment: Assessment, hop: int) -> StepResult[Refinement]:
        return self.offline.refine(question, understanding, subqueries, evidence, assessment, hop)

    def synthesise(self, question: str, understanding: Understanding, evidence: list[Evidence],
                   assessment: Assessment | None, budget: CallBudget) -> StepResult[Draft]:
        """Claims citing only the chunks shown; past the token limit, the offline extract instead."""
        shown = best_evidence(evidence)
        try:
            reply = self.caller.ask("synthesise", Answer, self.messages.synthesise(question, understanding, shown),
                                    budget)
        except BudgetExhausted:
            reply = NOT_SENT
        if reply.value is None:
            offline = self.offline.synthesise(question, understanding, evidence, assessment, budget.after(reply.tokens))
            return _fallback(offline, reply)
        draft, removed = decisions.cited_draft(reply.value.to_draft(), {e.chunk_id for e in shown})
        note = f"{len(draft.claims)} claims drafted by the model"
        note += f"; {removed} citations outside the evidence removed" if removed else ""
        return StepResult(draft, tokens=reply.tokens, note=_repaired(reply, note))

    def judge(self, question: str, verdicts: list[Verdict], evidence: list[Evidence],
              budget: CallBudget) -> StepResult[list[Verdict]]:
        """The model may drop claims the offline checks passed; it never adds one or restores a dropped one."""
        judged = [i for i, v in enumerate(verdicts) if v.supported]
        if not judged:
            return StepResult(verdicts)
        messages = self.messages.judge(question, [verdicts[i] for i in judged], evidence)
        try:
            reply = self.caller.ask("judge", Judgement, messages, budget)
        except BudgetExhausted:
            reply = NOT_SENT
        if reply.value is None:
            return _fallback(self.offline.judge(question, verdicts, evidence, budget.after(reply.tokens)), reply,
                             " (offline grounding checks only)")
        out, dropped = decisions.apply_judgement(verdicts, judged, reply.value)
        note = f"model judged {len(judged)} claims, dropped {dropped}"
        return StepResult(out, tokens=reply.tokens, note=_repaired(reply, note))
