"""YAML from files that people hand boundloop, read with safe types and with aliases bounded.

An alias re-uses a node: nine nested lists of nine aliases ("billion laughs") are a few lines of front matter that
become 531,441 items when the metadata is copied or hashed. `load_yaml` works out how many nodes the document
stands for once every alias is expanded, from the node graph and before anything is built; aliases may add at most
`ALIAS_NODES_MAX` nodes to what is written out, and a recursive alias is refused. Merge keys (`<<: *defaults`) and a
few shared lists stay well inside the bound.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

ALIAS_NODES_MAX = 10_000
"""How many nodes aliases may add once expanded (a large file written out in full is not limited by this)."""


class YamlRefused(yaml.YAMLError):
    """YAML that parses but is refused: aliases that expand too far or refer to themselves, or nesting too deep."""


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def expanded_nodes(root: Node) -> tuple[int, int]:
    """(nodes written, nodes once every alias is expanded) of a composed document; `YamlRefused` on a cycle.

    Each node's expanded size is computed once (the graph's shared nodes are memoised), so this is linear in the
    document's size, whatever the expansion comes to.
    """
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()  # the path from the root to the node being expanded
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
        elif key in open_nodes:
            raise YamlRefused("a YAML alias refers to a node that contains it (a recursive alias)")
        elif key not in sizes:
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in _children(node))
    return len(sizes), sizes[id(root)]


def load_yaml(text: str | bytes) -> Any:
    """The document in `text` as plain Python values (SafeLoader's types); `YamlRefused` or `yaml.YAMLError`."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        written, expanded = expanded_nodes(node)
        if expanded - written > ALIAS_NODES_MAX:
            raise YamlRefused(f"its aliases expand {written:,} nodes to {expanded:,}; at most {ALIAS_NODES_MAX:,} "
                              "more are allowed")
        return loader.construct_document(node)
    except RecursionError:
        raise YamlRefused("the YAML is nested too deeply") from None
    finally:
        loader.dispose()
