"""Only `policies/settings.py` reads the environment: every other module receives its settings.

An AST scan of the product's modules for `os.environ`, `os.getenv`, `os.putenv`, `os.unsetenv` and `environ`
imported from `os`. A few modules may touch a library's own variable (never a `BOUNDLOOP_*` one), named literally.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = sorted(link.name for link in (REPO / "boundloop").iterdir() if link.is_symlink())  # every layer
SETTINGS_MODULE = "policies/settings.py"
# A library's own variables, which the library reads itself; the module names each one literally.
LIBRARY_VARIABLES = {
    "cli/main.py": {"HF_HUB_OFFLINE", "TOKENIZERS_PARALLELISM"},  # set before the tokenizer and the hub load
    "retrieval/minilm_files.py": {"HF_HUB_OFFLINE"},
    "reasoners/llm/chat_models.py": {"OPENAI_API_KEY"},  # langchain-openai reads it; a local server needs none
    "evals/langsmith_data.py": {"LANGSMITH_API_KEY"},
    "service/langsmith_feedback.py": {"LANGSMITH_TRACING", "LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING_V2",
                                      "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"},
}
_CALLS = {"getenv", "putenv", "unsetenv"}


def _environment_uses(tree: ast.AST) -> list[tuple[int, str | None]]:
    """(line, variable) for each use of the environment; the variable is None when it is not a literal name."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    uses: list[tuple[int, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "os" and any(
                alias.name in {"environ", *_CALLS} for alias in node.names):
            uses.append((node.lineno, None))
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os"
                and node.attr in {"environ", *_CALLS}):
            continue
        parent = parents.get(node)
        key: ast.AST | None = None
        if isinstance(parent, ast.Subscript) and parent.value is node:  # os.environ["X"]
            key = parent.slice
        elif isinstance(parent, ast.Call) and parent.func is node and parent.args:  # os.getenv("X")
            key = parent.args[0]
        elif isinstance(parent, ast.Attribute) and parent.value is node:  # os.environ.get("X"), .setdefault(...)
            call = parents.get(parent)
            if isinstance(call, ast.Call) and call.args:
                key = call.args[0]
        name = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
        uses.append((node.lineno, name))
    return uses


def _product_files() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (REPO / package).rglob("*.py"))


def test_no_module_but_the_settings_reads_the_environment():
    found = []
    for path in _product_files():
        relative = path.relative_to(REPO).as_posix()
        if relative == SETTINGS_MODULE:
            continue
        allowed = LIBRARY_VARIABLES.get(relative, set())
        for line, name in _environment_uses(ast.parse(path.read_text(encoding="utf-8"))):
            if name is None or name not in allowed or name.startswith("BOUNDLOOP_"):
                found.append(f"{relative}:{line} {name or 'the environment'}")
    assert not found, "read the setting from policies.settings instead: " + ", ".join(found)


def test_the_scan_finds_every_form_of_access():
    source = """
import os
from os import environ
a = os.environ["BOUNDLOOP_INDEX"]
b = os.environ.get("BOUNDLOOP_DIRECTORY")
c = os.getenv("XDG_CACHE_HOME")
env = os.environ
os.environ.setdefault("HF_HUB_OFFLINE", "1")
"""
    uses = _environment_uses(ast.parse(source))
    assert sorted(uses, key=lambda use: use[0]) == [
        (3, None), (4, "BOUNDLOOP_INDEX"), (5, "BOUNDLOOP_DIRECTORY"), (6, "XDG_CACHE_HOME"), (7, None),
        (8, "HF_HUB_OFFLINE")]


def test_every_layer_is_scanned():
    assert {"cli", "domain", "policies", "retrieval", "runstore", "service"} <= set(PACKAGES)


def test_the_library_variables_are_still_used_where_listed():
    """A stale entry would let a later read of that variable through unnoticed."""
    for relative, names in LIBRARY_VARIABLES.items():
        used = {name for _, name in _environment_uses(ast.parse((REPO / relative).read_text(encoding="utf-8")))}
        assert names <= used, relative
