"""Runs the loop for one authenticated user: builds the run context, checkpoints the run, records it in the store.

Each run has a thread of its own (its checkpoints are its trace); a run that continues a conversation gets the
conversation's earlier turns from the run store, after the caller is found to own it.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Durability

from boundloop.domain.conversation import Turn
from boundloop.domain.models import Evidence
from boundloop.domain.result import RunResult
from boundloop.domain.trace import Span
from boundloop.graph.context import RunContext
from boundloop.graph.reasoner import Reasoner
from boundloop.loop.builder import build_graph
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.entitlements import AccessFilter, EntitlementResolver
from boundloop.policies.errors import BoundloopError, StoreDamaged, StoreUnwritable, UnknownConversation
from boundloop.retrieval.backend import Encoder, IndexBackend
from boundloop.retrieval.search import EntitledSearcher
from boundloop.runstore.store import RunStore

log = logging.getLogger(__name__)
Loop = CompiledStateGraph[Any, RunContext, Any, Any]
MAX_QUESTION_CHARS = 4000
# One checkpoint per run, written when it ends: it holds every span (the per-transition trace) and the evidence
# once. A checkpoint per transition repeated the growing state 24 times, about 270 KB a demo run on SQLite.
DURABILITY: Durability = "exit"


def validate_question(question: Any) -> str:
    if not isinstance(question, str) or not question.strip():
        raise BoundloopError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise BoundloopError(f"the question is longer than {MAX_QUESTION_CHARS} characters")
    return question.strip()


@dataclass
class LoopRunner:
    """Everything a run needs except the user, who comes with each call from an authenticated source."""

    resolver: EntitlementResolver
    backend: IndexBackend
    encoder: Encoder
    reasoner: Reasoner
    limits: BudgetLimits
    store: RunStore | None = None
    checkpointer: BaseCheckpointSaver | None = None
    """Where checkpoints go; the store's by default (the evals keep them in memory)."""

    def __post_init__(self) -> None:
        if self.checkpointer is None and self.store is not None:
            self.checkpointer = self.store.checkpointer
        self.graph = build_graph(checkpointer=self.checkpointer)

    def context_for(self, user: str, history: tuple[Turn, ...] | None = None,
                    cancel: threading.Event | None = None) -> RunContext:
        """Resolve the principal (unknown users fail here, before anything runs) and bind its filter.

        `history` is the conversation's earlier turns from the run store; None leaves them to the thread's state.
        """
        principal = self.resolver.resolve(user)
        searcher = EntitledSearcher(self.backend, self.encoder, AccessFilter.for_principal(principal))
        return RunContext(principal=principal, searcher=searcher, reasoner=self.reasoner, limits=self.limits,
                          history=history, cancel=cancel or threading.Event())

    def _conversation(self, conversation_id: str | None, user: str) -> tuple[str, tuple[Turn, ...]]:
        """The conversation the run joins and its earlier turns: the caller's own, or a new one.

        Another user's conversation and an unknown id are the same error, so neither can be told from the other.
        """
        if conversation_id is None:
            return uuid.uuid4().hex, ()
        if self.store is None or self.store.damaged:
            raise BoundloopError("conversations are kept in the run store, and this runner has none that works")
        if self.store.conversation_owner(conversation_id) != user:
            raise UnknownConversation(f"no conversation {conversation_id}")
        return conversation_id, tuple(self.store.context_turns(conversation_id))

    def _start(self, question: str, user: str, conversation_id: str | None, cancel: threading.Event | None = None
               ) -> tuple[str, str, RunContext, RunnableConfig, bool]:
        question = validate_question(question)
        conversation_id, history = self._conversation(conversation_id, user)
        context = self.context_for(user, history, cancel)
        run_id = uuid.uuid4().hex
        config: RunnableConfig = {
            "configurable": {"thread_id": run_id, "conversation_id": conversation_id},
            "run_id": uuid.UUID(run_id),  # the run's trace in LangSmith has the run's id, so feedback can find it
            "run_name": "boundloop",
            "metadata": {"reasoner": self.reasoner.name, "prompt_version": self.reasoner.prompt_version,
                         "conversation_id": conversation_id},
        }
        return question, run_id, context, config, self._recorded(run_id, user, question, conversation_id)

    def _recorded(self, run_id: str, user: str, question: str, conversation_id: str) -> bool:
        """Register the run in the store: a damaged store answers unrecorded (with a warning) rather than not at all.

        A full disk is not passed over: `StoreUnwritable` reaches the caller (HTTP 503, or one line from the CLI).
        """
        if self.store is None or self.store.damaged:
            return False
        try:
            self.store.start(run_id, user, question, conversation_id)
        except StoreDamaged as exc:
            log.warning("%s; runs go unrecorded until the store is replaced", exc)
            return False
        return True

    @cached_property
    def _unrecorded(self) -> Loop:
        return build_graph(checkpointer=None)

    def _graph_for(self, recorded: bool) -> Loop:
        """The checkpointed loop, unless the store could not record this run (then nothing of it is written)."""
        return self.graph if recorded or self.store is None else self._unrecorded

    def ask(self, question: str, user: str, conversation_id: str | None = None) -> RunResult:
        """One run to its end (see `stream`): the last event of its stream, the spans before it unread."""
        *_, (_, result) = self.stream(question, user, conversation_id)  # read to its end, so the stream closes
        return cast(RunResult, result)

    @contextmanager
    def _interrupted_on_error(self, run_id: str, recorded: bool) -> Iterator[None]:
        """A run that stops on an error is marked interrupted, not left running in the registry.

        One whose stream is closed before its end (its reader left: an SSE client that disconnected) is cancelled.
        """
        try:
            yield
        except BaseException as exc:
            if recorded and self.store:
                mark = self.store.cancel if isinstance(exc, GeneratorExit) else self.store.interrupt
                try:
                    mark(run_id)
                except Exception:  # the store is what failed, most likely; the first error is the one to report
                    log.warning("could not mark run %s %s", run_id, mark.__name__, exc_info=True)
            raise

    def _store_failure(self, exc: Exception) -> BoundloopError | None:
        """What a failure inside a run means for the run store (its checkpointer writes as the run ends)."""
        failure = self.store.failure(exc) if self.store else None
        if isinstance(failure, StoreUnwritable):
            raise failure from exc
        return failure

    def stream(self, question: str, user: str, conversation_id: str | None = None,
               cancel: threading.Event | None = None) -> Iterator[tuple[str, Span | RunResult]]:
        """One run to its end, answered, abstained or fallback, never past its budget, as its transitions happen.

        Yields ("span", span) per transition, then ("result", result). With `conversation_id` (the caller's own)
        the question may be a follow-up of that conversation's earlier turns; without, it starts a new conversation.
        Setting `cancel` (its reader left) ends the step under way at once, a model call in flight included; the
        caller then closes the stream, and the run is recorded cancelled.
        A run store found damaged as the run is written does not fail the run: it is answered again, unrecorded
        (its spans are not sent twice); a full disk stops it (`StoreUnwritable`).
        """
        question, run_id, context, config, recorded = self._start(question, user, conversation_id, cancel)
        with self._interrupted_on_error(run_id, recorded):
            try:
                values = yield from self._transitions(self._graph_for(recorded), question, context, config)
            except Exception as exc:
                if not recorded or not isinstance(failure := self._store_failure(exc), StoreDamaged):
                    raise
                log.warning("%s; answering this run again, unrecorded", failure)  # the store broke under the run
                recorded = False
                again = self.context_for(user, context.history)
                values = yield from self._transitions(self._unrecorded, question, again, config, spans=False)
            yield "result", self._finish(run_id, question, values, recorded)

    @staticmethod
    def _transitions(graph: Loop, question: str, context: RunContext, config: RunnableConfig, spans: bool = True
                     ) -> Generator[tuple[str, Span], None, dict[str, Any]]:
        """Run the graph: yield ("span", span) per transition (unless not `spans`); return the final values."""
        values: dict[str, Any] = {}
        durability = DURABILITY if graph.checkpointer else None  # nothing to write without a checkpointer
        for chunk in graph.stream({"question": question}, config=config, context=context, durability=durability,
                                  stream_mode=["updates", "values"]):
            mode, payload = cast(tuple[str, dict[str, Any]], chunk)
            if mode == "values":
                values = payload
            elif spans:
                for node, update in payload.items():
                    if node != "intake":  # it clears the spans (an `Overwrite`); steps add them
                        for span in (update or {}).get("spans", []):
                            yield "span", span
        return values

    def _finish(self, run_id: str, question: str, values: dict[str, Any], recorded: bool) -> RunResult:
        """The run's result from the graph's final values (the output fields of the state), recorded.

        A follow-up is recorded with what the earlier turns it leaned on showed (from its checkpoint): its standalone
        question shows it again, so reading the run later needs access to those chunks too.
        """
        result = RunResult.model_validate({**{k: values.get(k) for k in RunResult.model_fields}, "run_id": run_id})
        if recorded and self.store:
            try:
                leaned = self.context_chunks(run_id) if result.standalone_question not in (None, question) else []
                self.store.finish(run_id, result, leaned)
            except StoreDamaged as exc:
                log.warning("%s; this run's result is not recorded", exc)
        return result

    def context_chunks(self, run_id: str) -> list[str]:
        """What the earlier turns a follow-up leaned on showed, from its last checkpoint (none for an unknown run)."""
        snapshot = self.graph.get_state({"configurable": {"thread_id": run_id}})
        return list((snapshot.values or {}).get("context_chunks") or []) if snapshot else []

    def evidence(self, run_id: str) -> list[Evidence]:
        """The passages a run read, from its last checkpoint (none for an unknown run)."""
        snapshot = self.graph.get_state({"configurable": {"thread_id": run_id}})
        items = (snapshot.values or {}).get("evidence") if snapshot else None
        return [Evidence.model_validate(item) for item in items or []]

    def trace(self, run_id: str) -> list[Span]:
        """The spans of a run, read back from its checkpoints."""
        if self.checkpointer is None:
            raise BoundloopError("no checkpointer configured, so no traces are kept")
        snapshot = self.graph.get_state({"configurable": {"thread_id": run_id}})
        spans = snapshot.values.get("spans") if snapshot and snapshot.values else None
        if not spans:
            raise BoundloopError(f"no run {run_id!r}")
        return [Span.model_validate(span) for span in spans]


