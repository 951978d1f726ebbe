"""Wires the loop: intake clears the last question's state; every step's only outgoing edge goes to the governor."""

from __future__ import annotations

from typing import Any, cast

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from boundloop.domain.result import RunResult
from boundloop.domain.steps import STEPS, Step
from boundloop.graph.context import RunContext
from boundloop.graph.routing import ROUTES, route_after_governor
from boundloop.graph.spans import NodeFn, traced
from boundloop.graph.state import LoopInput, LoopState
from boundloop.nodes.evaluate import evaluate
from boundloop.nodes.governor import governor
from boundloop.nodes.intake import intake
from boundloop.nodes.plan import plan
from boundloop.nodes.refine import refine
from boundloop.nodes.resolve import resolve
from boundloop.nodes.respond import respond
from boundloop.nodes.retrieve import retrieve
from boundloop.nodes.synthesise import synthesise
from boundloop.nodes.understand import understand
from boundloop.nodes.verify import verify

# What each step of the table (domain.steps) runs.
STEP_NODES: dict[Step, NodeFn] = {
    "resolve": resolve,
    "understand": understand,
    "plan": plan,
    "retrieve": retrieve,
    "evaluate": evaluate,
    "refine": refine,
    "synthesise": synthesise,
    "verify": verify,
    "respond": respond,
}


def build_graph(checkpointer: BaseCheckpointSaver | None = None, context: RunContext | None = None,
                served: bool = False) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The bounded loop; compiled without a checkpointer when a server supplies persistence.

    Each run is handed its `RunContext`, unless the graph is `served`: then its callers pass no context (it has no
    context schema), and a graph compiled to execute a run has that run's `context` bound into its nodes.
    """
    builder = StateGraph(LoopState, context_schema=None if served else RunContext, input_schema=LoopInput,
                         output_schema=RunResult)
    builder.add_node("intake", intake)
    builder.add_node("governor", cast(Any, traced("governor", governor, context)))
    for name in STEPS:
        builder.add_node(name, cast(Any, traced(name, STEP_NODES[name], context)))
        builder.add_edge(name, "governor")
    builder.add_edge(START, "intake")
    builder.add_edge("intake", "governor")
    builder.add_conditional_edges("governor", route_after_governor, ROUTES)
    return builder.compile(checkpointer=checkpointer, name="boundloop")
