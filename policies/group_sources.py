"""Groups from the company's identity: the directory file first, then the identity provider or LDAP.

`FederatedResolver` is the `EntitlementResolver` for a deployment with a provider: a user in the directory file (a
script's API-key account) keeps the file's groups; anyone else gets the groups a `GroupSource` gives. A source
knows a user or says it does not (None); it never answers an empty list for "I could not ask" — an unreachable
directory raises, so the request is refused rather than run with the wrong groups.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from boundloop.policies.entitlements import DirectorySource, EntitlementResolver, Principal
from boundloop.policies.errors import UnknownUserError


class GroupSource(Protocol):
    """Where a user's groups come from when the directory file does not list them."""

    def groups_for(self, user: str) -> frozenset[str] | None:
        """The user's groups now; None when the source does not know the user; raises when it cannot tell."""
        ...


class FederatedResolver(EntitlementResolver):
    """The directory file's users first, then `source`: `resolve("jdoe")` is jdoe's LDAP or token groups."""

    def __init__(self, directory: DirectorySource, source: GroupSource) -> None:
        super().__init__(directory)
        self.source = source

    def resolve(self, user_id: str) -> Principal:
        if user_id in self.directory.users:
            return super().resolve(user_id)
        groups = self.source.groups_for(user_id)
        if groups is None:
            raise UnknownUserError(f"unknown user {user_id!r}: not in the directory file nor the identity provider")
        return Principal(user_id=user_id, groups=groups)


class TokenGroups:
    """The groups named by each user's latest verified token, until that token expires.

    With no LDAP directory the token is the only word on a user's groups: they are remembered from the token the
    request carried (`remember`) so the run, its passages and `/me` resolve the same groups, and forgotten when the
    token expires, so a user removed from a group loses it when their token is renewed.
    """

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._held: dict[str, tuple[frozenset[str], float]] = {}

    def remember(self, user: str, groups: frozenset[str], expires: float) -> None:
        with self._lock:
            self._held[user] = (groups, expires)
            if len(self._held) > 10_000:  # forget the expired ones; a busy server keeps only live sessions
                now = self._clock()
                self._held = {name: held for name, held in self._held.items() if held[1] > now}

    def groups_for(self, user: str) -> frozenset[str] | None:
        held = self._held.get(user)
        if held is None or held[1] <= self._clock():
            return None
        return held[0]
