"""Entitlement resolver: turns an authenticated user into the access filter the search engine applies.

It fails closed: an unknown user, an unreadable directory or a malformed entry is an error, never an empty
(and therefore permissive) filter.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from policies.errors import DirectoryError, UnknownUserError


@dataclass(frozen=True)
class Principal:
    """The authenticated person a run acts for. Lives in the run context, never in the loop's state."""

    user_id: str
    groups: frozenset[str]
    display_name: str = ""


@dataclass(frozen=True)
class AccessFilter:
    """The set of groups whose documents a search may return; applied inside the engine's query.

    An empty filter matches nothing. Build one with `AccessFilter.for_principal`.
    """

    groups: frozenset[str]

    @classmethod
    def for_principal(cls, principal: Principal) -> AccessFilter:
        """The filter for one principal: exactly their groups."""
        return cls(groups=frozenset(principal.groups))

    @property
    def matches_nothing(self) -> bool:
        """True when no document can pass (a user with no groups)."""
        return not self.groups

    def permits(self, acl: frozenset[str] | set[str] | list[str]) -> bool:
        """Whether a document with this ACL passes the filter (used to double-check results)."""
        return bool(self.groups.intersection(acl))


@dataclass(frozen=True)
class UserEntry:
    """One directory entry."""

    groups: frozenset[str]
    display_name: str = ""
    api_key_sha256: frozenset[str] = field(default_factory=frozenset)


class Directory:
    """Users and their groups, loaded from a JSON or YAML file of shape {"users": {name: {"groups": [...]}}}."""

    def __init__(self, users: dict[str, UserEntry], source: str = "<memory>") -> None:
        self.users = users
        self.source = source

    @classmethod
    def load(cls, path: str | Path) -> Directory:
        """Read and validate a directory file; any problem is a `DirectoryError`."""
        path = Path(path)
        try:
            raw_text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise DirectoryError(f"cannot read directory file {path}: {exc.strerror or exc}") from None
        try:
            raw = json.loads(raw_text) if path.suffix == ".json" else yaml.safe_load(raw_text)
        except (json.JSONDecodeError, yaml.YAMLError) as exc:
            kind = "JSON" if path.suffix == ".json" else "YAML"
            raise DirectoryError(f"directory file {path} is not valid {kind}: {exc}") from None
        return cls.from_mapping(raw, source=str(path))

    @classmethod
    def from_mapping(cls, raw: Any, source: str = "<memory>") -> Directory:
        """Validate the parsed shape."""
        if not isinstance(raw, dict) or not isinstance(raw.get("users"), dict):
            raise DirectoryError(f"directory {source} must be an object with a 'users' mapping")
        users: dict[str, UserEntry] = {}
        for name, entry in raw["users"].items():
            if not isinstance(entry, dict) or not isinstance(entry.get("groups", None), list):
                raise DirectoryError(f"directory {source}: user {name!r} needs a 'groups' list")
            groups = entry["groups"]
            if not all(isinstance(g, str) and g for g in groups):
                raise DirectoryError(f"directory {source}: user {name!r} has a group that is not a non-empty string")
            keys = entry.get("api_key_sha256", [])
            if isinstance(keys, str):
                keys = [keys]
            users[str(name)] = UserEntry(
                groups=frozenset(groups),
                display_name=str(entry.get("display_name", "")),
                api_key_sha256=frozenset(k.lower() for k in keys),
            )
        return cls(users, source=source)

    def user_for_api_key(self, api_key: str) -> str | None:
        """The user owning this API key (compared by SHA-256; raw keys are never stored)."""
        digest = hashlib.sha256(api_key.encode("utf-8")).hexdigest()
        for name, entry in self.users.items():
            if digest in entry.api_key_sha256:
                return name
        return None


class EntitlementResolver:
    """Resolves a user name to a `Principal`, and a principal to its `AccessFilter`."""

    def __init__(self, directory: Directory) -> None:
        self.directory = directory

    def resolve(self, user_id: str) -> Principal:
        """The principal for `user_id`; an unknown user is an error, never an anonymous principal."""
        entry = self.directory.users.get(user_id)
        if entry is None:
            raise UnknownUserError(f"unknown user {user_id!r}: not in directory {self.directory.source}")
        return Principal(user_id=user_id, groups=entry.groups, display_name=entry.display_name)

    def access_filter(self, user_id: str) -> AccessFilter:
        """The filter for a user name, in one step."""
        return AccessFilter.for_principal(self.resolve(user_id))
