"""The graph the LangGraph server serves (`graphs` in langgraph.json): the bounded loop, acting for the caller.

The server calls `make_graph` with a `ServerRuntime` whose `user` is the identity our `Auth` handler returned for the
request's credential (`service.langgraph_auth`). For run execution the factory resolves that user's principal and
compiles the loop for this run with the run context bound into its nodes (LangGraph's "rebuild the graph at
runtime" pattern); whatever `context` or `configurable` a client sends is never used to build it (and
`service.langgraph_auth` refuses runs that send any). Schema, drawing and state reads get the same topology without a
context. The graph has no checkpointer of its own: the server persists.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from langgraph.graph.state import CompiledStateGraph
from langgraph_sdk.runtime import ServerRuntime
from starlette.concurrency import run_in_threadpool

from boundloop.graph.context import RunContext
from boundloop.loop.builder import build_graph
from boundloop.service.state import shared_state

Loop = CompiledStateGraph[Any, RunContext, Any, Any]


@lru_cache(maxsize=1)
def _unbound() -> Loop:
    return build_graph(served=True)


def _bound_for(user: str) -> Loop:
    """The loop for one run of `user`; an unknown user is refused here, before anything runs (fail closed)."""
    return build_graph(context=shared_state().runner.context_for(user), served=True)


async def make_graph(runtime: ServerRuntime) -> Loop:
    """The loop for this request: compiled for the authenticated caller when it is about to run."""
    if runtime.execution_runtime is None:
        return _unbound()
    user = runtime.ensure_user()
    return await run_in_threadpool(_bound_for, user.identity)  # reads the index and compiles: off the event loop
