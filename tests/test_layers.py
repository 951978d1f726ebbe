"""Layers point down: the lower packages import nothing from the ones above them, and no module imports itself
back through a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# The layers from the bottom up: a package may import the ones below its own tier, never its tier or above.
TIERS: tuple[tuple[str, ...], ...] = (
    ("domain",),  # records, usage, steps, text helpers: imports nothing of ours
    ("policies",),  # the wardens: budget, entitlements, verification, errors
    ("retrieval",),  # index, search and ingest, filtered by the entitlements they are given
    ("runstore",),  # runs, checkpoints, conversations and feedback
    ("graph",),  # state, run context, routing, spans: what the nodes are written against
    ("nodes",),  # one file per step
    ("reasoners",),  # the decisions, behind graph.reasoner
    ("loop",),  # the assembled loop: builder, runner, workspace
    ("evals", "service"),
    ("cli",),
)
PACKAGES = tuple(sorted(package for tier in TIERS for package in tier))
# What each package may never import (directly or inside a function): its own tier and every tier above it.
FORBIDDEN = {package: {above for upper in TIERS[level:] for above in upper} - {package}
             for level, tier in enumerate(TIERS) for package in tier}


def _module(path: Path) -> str:
    """The import name of a file: `loop/builder.py` is `boundloop.loop.builder` (the folders are linked in there)."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(("boundloop", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def _package(module: str) -> str:
    """The layer a module belongs to: `boundloop.graph.state` is in `graph`."""
    return module.split(".")[1]


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules a file imports; `from package import module` counts as importing the module only."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & modules
            found.update(submodules or {node.module})
            if len(submodules) < len(node.names):
                found.add(node.module)
    return found & modules


def _graph() -> dict[str, set[str]]:
    files = {_module(p): p for package in PACKAGES for p in (REPO / package).rglob("*.py")}
    return {name: _imports(path, set(files)) - {name} for name, path in files.items()}


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_lower_packages_import_nothing_above_them(package):
    upward = sorted(f"{name} -> {target}" for name, targets in _graph().items() if _package(name) == package
                    for target in targets if _package(target) in FORBIDDEN[package])
    assert not upward


def test_no_import_cycles():
    graph = _graph()
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles


def test_the_import_graph_is_the_real_one():
    """The graph holds every layer's modules under their import names, and the imports between them."""
    graph = _graph()
    linked = {p.name for p in (REPO / "boundloop").iterdir() if p.is_symlink()} - {"demo"}  # demo holds data only
    assert {_package(name) for name in graph} == set(PACKAGES) == linked
    assert "boundloop.domain.steps" in graph["boundloop.graph.routing"]
    assert "boundloop.graph.state" in graph["boundloop.nodes.plan"]
    assert sum(len(targets) for targets in graph.values()) > 500
