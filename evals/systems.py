"""The systems an eval compares, each a `LoopRunner` over the same index, encoder and synthesiser.

A run goes through `LoopRunner.ask`, exactly as the product runs it; an in-memory checkpointer keeps the final
state so the eval can read what the public output leaves out (the evidence, the drafted claims), and the run's
thread is dropped as soon as it has been read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from langgraph.checkpoint.memory import InMemorySaver
from langsmith import tracing_context

from boundloop.domain.result import RunResult
from boundloop.evals.baselines import OneHopReasoner, UntargetedReasoner
from boundloop.evals.records import EvidenceRef, RunRecord, ShownDoc
from boundloop.graph.reasoner import Reasoner
from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.entitlements import EntitlementResolver
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.retrieval.backend import Encoder, IndexBackend
from boundloop.runstore.serde import checkpoint_serde

SystemName = Literal["loop", "one_hop", "untargeted"]
SYSTEMS: tuple[SystemName, ...] = ("loop", "one_hop", "untargeted")

def reasoner_for(system: SystemName, limits: BudgetLimits) -> Reasoner:
    """The offline reasoner, or one of its baseline variants."""
    if system == "one_hop":
        return OneHopReasoner()
    if system == "untargeted":
        return UntargetedReasoner(max_hops=limits.max_hops)
    return OfflineReasoner()


class SystemRunner:
    """Asks questions through one system and returns what the evaluators score."""

    def __init__(self, system: SystemName, resolver: EntitlementResolver, backend: IndexBackend, encoder: Encoder,
                 limits: BudgetLimits, reasoner: Reasoner | None = None) -> None:
        self.system = system
        self._saver = InMemorySaver(serde=checkpoint_serde())
        self.runner = LoopRunner(resolver=resolver, backend=backend, encoder=encoder,
                                 reasoner=reasoner or reasoner_for(system, limits), limits=limits,
                                 checkpointer=self._saver)

    def run(self, question: str, user: str) -> RunRecord:
        started = time.perf_counter()
        result = self.runner.ask(question, user)
        latency_ms = (time.perf_counter() - started) * 1000
        config: Any = {"configurable": {"thread_id": result.run_id}}
        state = self.runner.graph.get_state(config).values
        self._saver.delete_thread(result.run_id)
        return record_of(result, state, latency_ms)

    def target(self, trace_steps: bool) -> Callable[[dict[str, Any]], dict[str, Any]]:
        """The LangSmith target: example inputs {"question", "user"} in, a `RunRecord` as a dict out.

        With `trace_steps` off, the loop's own steps are not traced under the target's run: LangChain's tracer
        would try to send them to the service even when the experiment is kept local.
        """

        def ask(inputs: dict[str, Any]) -> dict[str, Any]:
            with tracing_context(enabled=None if trace_steps else False):
                return self.run(inputs["question"], inputs["user"]).model_dump()

        ask.__name__ = self.system
        return ask


def record_of(result: RunResult, state: dict[str, Any], latency_ms: float) -> RunRecord:
    """The scored facts of a run: its public result plus evidence and drafted claims from its final state."""
    usage = result.usage
    return RunRecord(
        status=result.status,
        answer=result.answer if result.status == "answered" else "",
        short_answer=result.short_answer if result.status == "answered" else None,
        query_class=result.query_class,
        stop_reason=result.stop_reason,
        usage=usage,
        latency_ms=round(latency_ms, 3),
        citations=[ShownDoc(doc_id=c.doc_id, chunk_id=c.chunk_id) for c in result.citations],
        fallback=[ShownDoc(doc_id=f.doc_id, chunk_id=f.chunk_id, snippet=f.snippet) for f in result.fallback_results],
        evidence=[EvidenceRef(doc_id=e.doc_id, chunk_id=e.chunk_id, hop=e.hop) for e in state.get("evidence", [])],
        claims_drafted=len(state.get("verified") or []) + (state.get("dropped_claims") or 0),
        claims_kept=len(state.get("verified") or []),
    )
