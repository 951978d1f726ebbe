"""Entitlement resolver: turns an authenticated user into the access filter the search engine applies.

It fails closed: an unknown user, an unreadable directory or a malformed entry is an error, never an empty
(and therefore permissive) filter.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import yaml

from boundloop.domain.bounded_yaml import load_yaml
from boundloop.policies.errors import DirectoryError, UnknownUserError

_SHA256_HEX = re.compile(r"[0-9a-fA-F]{64}")


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

    def __init__(self, users: dict[str, UserEntry], source: str = "<memory>",
                 owners: dict[str, str] | None = None) -> None:
        self.users = users
        self.source = source
        self._owners = owners if owners is not None else {
            digest: name for name, entry in users.items() for digest in entry.api_key_sha256}

    @classmethod
    def load(cls, path: str | Path) -> Directory:
        """Read and validate a directory file; any problem is a `DirectoryError`."""
        path = Path(path)
        try:
            raw_text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise DirectoryError(f"cannot read directory file {path}: {reason}") from None
        return cls.parse(raw_text, path)

    @classmethod
    def parse(cls, raw_text: str, path: Path) -> Directory:
        """Validate a directory file's text: JSON for a `.json` file, YAML otherwise."""
        try:
            raw = json.loads(raw_text) if path.suffix == ".json" else load_yaml(raw_text)
        except (json.JSONDecodeError, yaml.YAMLError) as exc:
            kind = "JSON" if path.suffix == ".json" else "YAML"
            raise DirectoryError(f"directory file {path} is not valid {kind}: {exc}") from None
        return cls.from_mapping(raw, source=str(path))

    @classmethod
    def from_mapping(cls, raw: Any, source: str = "<memory>") -> Directory:
        """Validate the parsed shape; every API-key digest is a SHA-256 hex string owned by one user only."""
        if not isinstance(raw, dict) or not isinstance(raw.get("users"), dict):
            raise DirectoryError(f"directory {source} must be an object with a 'users' mapping")
        users: dict[str, UserEntry] = {}
        owners: dict[str, str] = {}
        for name, entry in raw["users"].items():
            if not isinstance(entry, dict) or not isinstance(entry.get("groups", None), list):
                raise DirectoryError(f"directory {source}: user {name!r} needs a 'groups' list")
            groups = entry["groups"]
            if not all(isinstance(g, str) and g for g in groups):
                raise DirectoryError(f"directory {source}: user {name!r} has a group that is not a non-empty string")
            digests = _digests(entry.get("api_key_sha256", []), f"directory {source}: user {name!r}")
            for digest in digests:
                if digest in owners:
                    raise DirectoryError(f"directory {source}: users {owners[digest]!r} and {name!r} have the same "
                                         "API key digest; a key must identify one user")
                owners[digest] = str(name)
            users[str(name)] = UserEntry(
                groups=frozenset(groups),
                display_name=str(entry.get("display_name", "")),
                api_key_sha256=frozenset(digests),
            )
        return cls(users, source=source, owners=owners)

    def current(self) -> Directory:
        """A loaded directory is its own current version (see `DirectorySource`)."""
        return self

    def user_for_api_key(self, api_key: str) -> str | None:
        """The user owning this API key (compared by SHA-256; raw keys are never stored)."""
        return self._owners.get(hashlib.sha256(api_key.encode("utf-8")).hexdigest())

    @property
    def api_key_digests(self) -> frozenset[str]:
        return frozenset(self._owners)


def _digests(value: Any, where: str) -> list[str]:
    """`api_key_sha256`: one digest or a list of them, each 64 hexadecimal characters."""
    listed = [value] if isinstance(value, str) else value
    if not isinstance(listed, list):
        raise DirectoryError(f"{where}: 'api_key_sha256' must be a digest or a list of digests")
    for digest in listed:
        if not isinstance(digest, str) or not _SHA256_HEX.fullmatch(digest):
            shown = type(digest).__name__ if not isinstance(digest, str) else "a string"
            raise DirectoryError(f"{where}: an 'api_key_sha256' entry is {shown} that is not a SHA-256 hex digest "
                                 "(64 characters 0-9, a-f)")
    return [d.lower() for d in listed]


class DirectorySource(Protocol):
    """Where the current directory comes from: a loaded `Directory`, or a file reloaded when it changes."""

    def current(self) -> Directory: ...


class EntitlementResolver:
    """Resolves a user name to a `Principal`, and a principal to its `AccessFilter`."""

    def __init__(self, directory: DirectorySource) -> None:
        self._source = directory

    @property
    def directory(self) -> Directory:
        """The directory as it is now (a reloading source may have swapped it since the last call)."""
        return self._source.current()

    def resolve(self, user_id: str) -> Principal:
        """The principal for `user_id`; an unknown user is an error, never an anonymous principal."""
        directory = self.directory
        entry = directory.users.get(user_id)
        if entry is None:
            raise UnknownUserError(f"unknown user {user_id!r}: not in directory {directory.source}")
        return Principal(user_id=user_id, groups=entry.groups, display_name=entry.display_name)

    def access_filter(self, user_id: str) -> AccessFilter:
        """The filter for a user name, in one step."""
        return AccessFilter.for_principal(self.resolve(user_id))
