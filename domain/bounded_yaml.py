"""YAML from files that people hand boundloop, read with safe types and with aliases bounded.

An alias re-uses a node: nine nested lists of nine aliases ("billion laughs") are a few lines of front matter that
become 531,441 items when the metadata is copied or hashed. `load_yaml` works out how many nodes the document
stands for once every alias is expanded, from the node graph and before anything is built; aliases may add at most
`ALIAS_NODES_MAX` nodes to what is written out, and a recursive alias is refused. Merge keys (`<<: *defaults`) and a
few shared lists stay well inside the bound. A key named twice in one mapping is refused too: YAML's readers keep
the last value silently, and in an ACL that is a document published to a group its author did not see.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

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


MERGE_TAG = "tag:yaml.org,2002:merge"


def repeated_key(root: Node) -> str | None:
    """The first key a mapping of the document names twice, or None.

    PyYAML keeps the last value of a repeated key without a word: `acl: [hr]` then, lines below, `acl: [all-staff]`
    publishes the file to everyone while its first line says HR. Merge keys (`<<`) are not keys of their own.
    """
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, MappingNode):
            keys: set[tuple[str, str]] = set()
            for key, _ in node.value:
                if isinstance(key, ScalarNode) and key.tag != MERGE_TAG:
                    if (key.tag, key.value) in keys:
                        return str(key.value)
                    keys.add((key.tag, key.value))
        stack.extend(_children(node))
    return None


def load_yaml(text: str | bytes) -> Any:
    """The document in `text` as plain Python values (SafeLoader's types); `YamlRefused` or `yaml.YAMLError`.

    A key named twice in one mapping is refused (`YamlRefused`), not settled silently by the last value.
    """
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        written, expanded = expanded_nodes(node)
        if expanded - written > ALIAS_NODES_MAX:
            raise YamlRefused(f"its aliases expand {written:,} nodes to {expanded:,}; at most {ALIAS_NODES_MAX:,} "
                              "more are allowed")
        if (key := repeated_key(node)) is not None:
            raise YamlRefused(f"the key {key[:40]!r} is named twice in one mapping (which one was meant?)")
        return loader.construct_document(node)
    except RecursionError:
        raise YamlRefused("the YAML is nested too deeply") from None
    finally:
        loader.dispose()
