"""The graph the LangGraph server serves (`graphs` in langgraph.json): the bounded loop, acting for the caller.

The server calls `make_graph` for every run with a `ServerRuntime` whose `user` is the identity our `Auth` handler
returned for the request's credential (`service.langgraph_auth`). Only for run execution does the factory resolve
that user's principal and bind the run context to the graph; whatever `context` or `configurable` a client sends
is never used to build it (and `service.langgraph_auth` refuses runs that send any). Schema, drawing and state
reads get the same topology without a context, and without a context schema. The graph has no checkpointer of its
own: the server persists.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from functools import lru_cache
from typing import Any

from langgraph.graph.state import CompiledStateGraph
from langgraph_sdk.runtime import ServerRuntime
from starlette.concurrency import run_in_threadpool

from graph.builder import build_graph
from graph.context import RunContext
from service.state import shared_state


class CallerBoundGraph(CompiledStateGraph[Any, RunContext, Any, Any]):
    """The compiled loop with its run context fixed on the server; a context passed to a run is discarded.

    Every execution path of a Pregel graph (invoke, ainvoke, astream_events) goes through `stream` or `astream`,
    so overriding those two is enough. `copy()` keeps the subclass and the bound context.
    """

    def __init__(self, *, bound_context: RunContext, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bound_context = bound_context

    def stream(self, input: Any, config: Any = None, *, context: Any = None, **kwargs: Any) -> Iterator[Any]:
        return super().stream(input, config, context=self.bound_context, **kwargs)

    def astream(self, input: Any, config: Any = None, *, context: Any = None, **kwargs: Any) -> AsyncIterator[Any]:
        return super().astream(input, config, context=self.bound_context, **kwargs)


@lru_cache(maxsize=1)
def _loop() -> CompiledStateGraph[Any, RunContext, Any, Any]:
    return build_graph(checkpointer=None)


@lru_cache(maxsize=1)
def _described() -> CompiledStateGraph[Any, RunContext, Any, Any]:
    """The loop as schemas and Studio show it: no context schema, since clients may send no context.

    The run context holds a searcher and a reasoner, which have no JSON schema; `/assistants/{id}/schemas` used to
    answer 500 trying to build one.
    """
    return _loop().copy(update={"context_schema": None})


def bind_context(graph: CompiledStateGraph[Any, RunContext, Any, Any], context: RunContext) -> CallerBoundGraph:
    """A copy of `graph` that always runs with `context`."""
    attrs = {k: v for k, v in graph.__dict__.items() if k != "__orig_class__"}
    return CallerBoundGraph(bound_context=context, **attrs)


def _context_for(user: str) -> RunContext:
    """The caller's run context; an unknown user is refused here, before anything runs (fail closed)."""
    return shared_state().runner.context_for(user)


async def make_graph(runtime: ServerRuntime) -> CompiledStateGraph[Any, RunContext, Any, Any]:
    """The loop for this request: bound to the authenticated caller's principal when it is about to run."""
    if runtime.execution_runtime is None:
        return _described()
    user = runtime.ensure_user()
    context = await run_in_threadpool(_context_for, user.identity)  # reads the index: off the event loop
    return bind_context(_loop(), context)
