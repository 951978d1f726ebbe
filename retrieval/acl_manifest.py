"""Who may read a folder's documents: an ACL is a list of group names, and `acl.json` / `acl.yaml` maps globs to one."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path
from typing import Any

import yaml

from boundloop.domain.bounded_yaml import load_yaml
from boundloop.retrieval.errors import IngestError

MANIFEST_NAMES = ("acl.json", "acl.yaml", "acl.yml")


def acl_list(value: Any) -> tuple[str, ...] | str:
    """A validated ACL, or why the value is not one: it must be a list of non-empty strings.

    A bare string is refused rather than read as one group (or as its characters): `acl: finance` and
    `acl: [finance]` look alike, and a reading that guesses wrong publishes a document.
    """
    if isinstance(value, str):
        return f"must be a list of group names, not the string {value[:40]!r} (write [{value[:40]!r}])"
    if not isinstance(value, list):
        return f"must be a list of group names, not {type(value).__name__}"
    if not all(isinstance(g, str) and g.strip() for g in value):
        return "must be a list of group names (non-empty strings)"
    return tuple(sorted({g.strip() for g in value}))



def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are distinct: `json` keeps a repeated key's last value without a word."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the glob {key[:40]!r} is named twice (which groups were meant?)")
        found[key] = value
    return found


Rule = tuple[str, tuple[str, ...]]
"""A manifest's glob and the groups it gives the files it matches."""


def _shadowed(rules: list[Rule]) -> tuple[Rule, Rule] | None:
    """A glob that an earlier one with other groups always matches first, and that earlier one; else None.

    '"*": [all-staff]' before '"hr/*": [hr]' publishes the HR folder to everyone: the first matching glob wins, and
    '*' matches 'hr/*' itself, so it matches every path 'hr/*' would. A tool that sorts a manifest's keys makes
    exactly this order. The same groups twice are harmless and pass.
    """
    for index, (late, late_acl) in enumerate(rules):
        for early, early_acl in rules[:index]:
            if set(early_acl) != set(late_acl) and fnmatch.fnmatchcase(late, early):
                return (early, early_acl), (late, late_acl)
    return None


class AclManifest:
    """An acl.json / acl.yaml in a folder, mapping file globs (relative to the folder) to groups."""

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules

    @classmethod
    def find(cls, folder: Path) -> AclManifest:
        root = folder.resolve()
        for name in MANIFEST_NAMES:
            path = folder / name
            if path.is_file():
                if path.is_symlink() and root not in path.resolve().parents:
                    raise IngestError(f"ACL manifest {path} is a symbolic link out of the folder; not read")
                return cls.load(path)
        return cls([])

    @classmethod
    def load(cls, path: Path) -> AclManifest:
        try:
            text = path.read_text(encoding="utf-8")
            raw = json.loads(text, object_pairs_hook=_unique_keys) if path.suffix == ".json" else load_yaml(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, yaml.YAMLError, ValueError) as exc:
            raise IngestError(f"ACL manifest {path} cannot be read: {exc}") from None
        if not isinstance(raw, dict):
            raise IngestError(f"ACL manifest {path} must map file globs to lists of groups")
        rules: list[Rule] = []
        for pattern, groups in raw.items():
            acl = acl_list(groups)
            if isinstance(acl, str):
                raise IngestError(f"ACL manifest {path}: {pattern!r} {acl}")
            rules.append((str(pattern), acl))
        if shadowed := _shadowed(rules):
            (early, early_acl), (late, late_acl) = shadowed
            raise IngestError(f"ACL manifest {path}: {late!r} {list(late_acl)} comes after {early!r} "
                              f"{list(early_acl)}, which already matches every file it names, so its groups would "
                              "never apply (the first matching glob wins): put the more specific glob first")
        return cls(rules)

    def acl_for(self, relative: str) -> tuple[str, ...] | None:
        """The groups of the first glob that matches, in the file's order; None when none matches (visible to nobody).

        Order is the rule (`demo/corpus/acl.yaml` lists specific globs before general ones); a glob named twice is
        refused when the manifest is read, since JSON and YAML readers would otherwise keep its last value silently.
        """
        name = relative.rsplit("/", 1)[-1]
        for pattern, acl in self.rules:
            if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(name, pattern):
                return acl
        return None
