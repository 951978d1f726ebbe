"""Layers point down: the lower packages import nothing from the ones above them, and no module imports itself
back through a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("cli", "domain", "evals", "graph", "nodes", "policies", "reasoners", "retrieval", "runstore", "service")
# What each lower package may never import (directly or inside a function).
FORBIDDEN = {
    "domain": {"graph", "nodes", "policies", "reasoners", "runstore", "service", "cli", "evals"},
    "policies": {"graph", "nodes", "reasoners", "runstore", "service", "cli", "evals"},
    "graph": {"reasoners", "service", "cli", "evals"},
    "nodes": {"reasoners", "runstore", "service", "cli", "evals"},
    "runstore": {"graph", "nodes", "reasoners", "service", "cli", "evals"},
    "reasoners": {"runstore", "service", "cli", "evals"},
}


def _module(path: Path) -> str:
    """The import name of a file: `graph/builder.py` is `boundloop.graph.builder` (the folders are linked in there)."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(("boundloop", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def _package(module: str) -> str:
    """The layer a module belongs to: `boundloop.graph.builder` is in `graph`."""
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
    assert {_package(name) for name in graph} == set(PACKAGES)
    assert "boundloop.domain.steps" in graph["boundloop.graph.routing"]
    assert "boundloop.graph.state" in graph["boundloop.nodes.plan"]
    assert sum(len(targets) for targets in graph.values()) > 500
