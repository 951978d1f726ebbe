"""YAML people hand boundloop (front matter, acl.yaml, the directory, prompt overrides) is read with its aliases
bounded (issue 31): an alias bomb in front matter was expanded into 531k items of metadata."""

from __future__ import annotations

import pytest

from boundloop.domain.bounded_yaml import ALIAS_NODES_MAX, YamlRefused, load_yaml
from boundloop.policies.entitlements import Directory
from boundloop.policies.errors import BoundloopError, DirectoryError

BOMB = "\n".join([
    "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
    "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
])


def indented(text: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line for line in text.splitlines())


def test_an_alias_bomb_is_refused_before_it_is_built():
    with pytest.raises(YamlRefused, match="aliases expand 22 nodes to 672,610; at most 10,000 more"):
        load_yaml(BOMB)


def test_recursive_aliases_and_deep_nesting_are_refused():
    with pytest.raises(YamlRefused, match="recursive alias"):
        load_yaml("a: &a [1, *a]")
    with pytest.raises(YamlRefused, match="nested too deeply"):
        load_yaml("[" * 5000 + "]" * 5000)


def test_ordinary_aliases_and_merge_keys_still_load():
    text = "defaults: &d {groups: [staff]}\nalice:\n  <<: *d\n  name: Alice\nbob: *d\n"
    assert load_yaml(text) == {"defaults": {"groups": ["staff"]}, "alice": {"groups": ["staff"], "name": "Alice"},
                               "bob": {"groups": ["staff"]}}
    big = "items: &i [" + ", ".join(str(n) for n in range(ALIAS_NODES_MAX - 10)) + "]\ncopy: *i\n"
    assert len(load_yaml(big)["copy"]) == ALIAS_NODES_MAX - 10  # one copy of a large list is within the bound
    assert load_yaml("") is None and load_yaml(b"acl: [g]") == {"acl": ["g"]}


def test_an_alias_bomb_in_the_directory_names_the_file(tmp_path):
    directory = tmp_path / "directory.yaml"
    directory.write_text(f"users:\n  alice:\n    groups: [g]\nbomb:\n{indented(BOMB, 2)}\n")
    with pytest.raises(DirectoryError, match=f"directory file {directory} is not valid YAML: its aliases"):
        Directory.load(directory)


def test_an_alias_bomb_in_the_prompt_overrides_names_the_file(tmp_path):
    from boundloop.reasoners.llm.prompts import load_prompts

    prompts = tmp_path / "prompts.yaml"
    prompts.write_text(BOMB + "\n")
    with pytest.raises(BoundloopError, match=f"cannot read {prompts}: its aliases"):
        load_prompts(str(prompts))


def test_a_key_named_twice_is_refused_but_merge_keys_are_not():
    with pytest.raises(YamlRefused, match="'acl' is named twice"):
        load_yaml("acl: [hr]\ntitle: Bands\nacl: [all-staff]\n")
    with pytest.raises(YamlRefused, match="named twice"):
        load_yaml("users:\n  bob: {groups: [staff]}\n  bob: {groups: [hr]}\n")
    assert load_yaml("base: &b {acl: [hr]}\ndoc:\n  <<: *b\n  title: T\n") == {
        "base": {"acl": ["hr"]}, "doc": {"acl": ["hr"], "title": "T"}}
    assert load_yaml("1: a\n'1': b\n") == {1: "a", "1": "b"}  # an int and a string are two keys
