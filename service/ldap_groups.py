"""A user's groups from LDAP or Active Directory: the `cn` of every group they belong to, nested groups included.

Active Directory answers nesting itself (the LDAP_MATCHING_RULE_IN_CHAIN rule, 1.2.840.113556.1.4.1941); any other
directory is walked upwards from the user, at most `MAX_NESTING` levels, a group met twice counted once. Every value
placed in a filter is escaped (RFC 4515), so a user name such as `*)(uid=*` matches nobody; and the entry found
must hold the name itself, letter case aside, not one the directory's matching rule reaches by dropping spaces
or folding full-width forms.

Answers are cached for `cache_s`: a user removed from a group loses it within that time, without a restart. When
the directory cannot be reached, groups read less than `cache_s + grace_s` ago still serve; older ones do not, and
the request is a 503 (`DirectoryUnavailable`): never an empty list, never a stale one kept forever.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ldap3 import BASE, SUBTREE, Connection, Server
from ldap3.core.exceptions import LDAPException, LDAPSizeLimitExceededResult
from ldap3.utils.conv import escape_filter_chars

from boundloop.service.errors import DirectoryUnavailable
from boundloop.service.ldap_settings import LdapSettings

log = logging.getLogger(__name__)
MAX_NESTING = 8
TIMEOUT_S = 5
IN_CHAIN = "1.2.840.113556.1.4.1941"
ACTIVE_DIRECTORY = "1.2.840.113556.1.4.800"  # in the root DSE's supportedCapabilities
UNAVAILABLE = "the group directory (LDAP) cannot be reached and this user's groups are not known recently enough; " \
              "try again shortly"


def _entries(connection: Connection) -> list[dict[str, Any]]:
    return [item for item in connection.response or [] if item.get("type") == "searchResEntry"]


def _first(values: object) -> str | None:
    if isinstance(values, list):
        return str(values[0]) if values else None
    return str(values) if values else None


def _holds_name(entry: dict[str, Any], attribute: str, user: str) -> bool:
    """Whether the entry's `attribute` holds `user` itself, letter case aside.

    The directory's own matching rule (caseIgnoreMatch) also drops surrounding spaces and folds full-width and
    compatibility forms: slapd finds `uid=dave` for ' dave' and for its full-width spelling, which an identity
    provider may hold as another person's name. Case alone is not another person: providers and directories
    (Entra ID, Okta, Keycloak, Active Directory) keep user names unique regardless of case.
    """
    attributes = entry.get("attributes") or {}
    values: object = next((v for k, v in attributes.items() if k.lower() == attribute.lower()), [])
    held = values if isinstance(values, list) else [values]
    return any(isinstance(value, str) and value.lower() == user.lower() for value in held)


class LdapGroups:
    """A `GroupSource` over one directory, with a per-user cache."""

    def __init__(self, settings: LdapSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self._clock = clock
        self._lock = threading.Lock()
        self._connection: Connection | None = None
        self._is_ad: bool | None = None
        self._cache: dict[str, tuple[frozenset[str] | None, float]] = {}
        self.problem: str | None = None

    def groups_for(self, user: str) -> frozenset[str] | None:
        """The user's groups; None when the directory has no such user; `DirectoryUnavailable` when it cannot say."""
        cached = self._cache.get(user)
        now = self._clock()
        if cached is not None and now - cached[1] < self.settings.cache_s:
            return cached[0]
        try:
            groups = self._lookup(user)
        except LDAPException as exc:
            self.problem = f"the group directory cannot be reached: {type(exc).__name__}"
            log.warning("LDAP lookup for %r failed: %s", user, exc)
            if cached is not None and now - cached[1] < self.settings.cache_s + self.settings.grace_s:
                return cached[0]
            raise DirectoryUnavailable(UNAVAILABLE) from None
        self.problem = None
        self._cache[user] = (groups, self._clock())
        return groups

    def _lookup(self, user: str) -> frozenset[str] | None:
        with self._lock:
            try:
                return self._lookup_locked(user)
            except LDAPException:
                self._drop_connection()  # the next lookup connects afresh
                raise

    def _lookup_locked(self, user: str) -> frozenset[str] | None:
        connection = self._connect()
        s = self.settings
        try:
            connection.search(s.user_base, f"({s.user_attribute}={escape_filter_chars(user)})", SUBTREE,
                              attributes=[s.user_attribute], size_limit=2)
        except LDAPSizeLimitExceededResult:  # the name matches more than one entry
            return None
        found = _entries(connection)
        if len(found) != 1:  # nobody, or a name two entries share: neither identifies one person
            return None
        if not _holds_name(found[0], s.user_attribute, user):
            return None
        user_dn = str(found[0]["dn"])
        if self._is_ad:
            connection.search(s.group_base, f"(member:{IN_CHAIN}:={escape_filter_chars(user_dn)})", SUBTREE,
                              attributes=["cn"])
            return frozenset(cn for e in _entries(connection) if (cn := _first(e["attributes"].get("cn"))))
        return self._walk(connection, user_dn)

    def _walk(self, connection: Connection, user_dn: str) -> frozenset[str]:
        """Groups holding the user, then the groups holding those, up to `MAX_NESTING` levels."""
        names: set[str] = set()
        seen: set[str] = set()
        frontier = [user_dn]
        for _ in range(MAX_NESTING):
            members = "".join(f"(member={escape_filter_chars(dn)})(uniqueMember={escape_filter_chars(dn)})"
                              for dn in frontier)
            connection.search(self.settings.group_base, f"(|{members})", SUBTREE, attributes=["cn"])
            frontier = []
            for entry in _entries(connection):
                dn = str(entry["dn"]).lower()
                if dn in seen:
                    continue
                seen.add(dn)
                frontier.append(str(entry["dn"]))
                if cn := _first(entry["attributes"].get("cn")):
                    names.add(cn)
            if not frontier:
                break
        return frozenset(names)

    def _connect(self) -> Connection:
        if self._connection is not None:
            return self._connection
        s = self.settings
        server = Server(s.url, connect_timeout=TIMEOUT_S)
        connection = Connection(server, user=s.bind_dn, password=s.bind_password, read_only=True,
                                receive_timeout=TIMEOUT_S, raise_exceptions=True, auto_bind=True)
        if self._is_ad is None:
            connection.search("", "(objectClass=*)", BASE, attributes=["supportedCapabilities"])
            root = _entries(connection)
            capabilities = root[0]["attributes"].get("supportedCapabilities", []) if root else []
            self._is_ad = ACTIVE_DIRECTORY in (capabilities if isinstance(capabilities, list) else [capabilities])
        self._connection = connection
        return connection

    def _drop_connection(self) -> None:
        if self._connection is not None:
            try:
                self._connection.unbind()
            except LDAPException:
                pass
            self._connection = None
