"""Where the company's LDAP or Active Directory is, and how to find a user and their groups in it (`BOUNDLOOP_LDAP_*`).

Checked in full when the service starts: a setting that cannot work is one line (`boundloop serve` exits 2), not a
503 on the first request.
"""

from __future__ import annotations

import importlib.util
import re

from pydantic import BaseModel, ConfigDict, Field

from boundloop.policies.errors import BoundloopError
from boundloop.policies.settings import Settings, env_name, settings

DEFAULT_USER_ATTRIBUTE: str = Settings.model_fields["ldap_user_attribute"].default
DEFAULT_CACHE_S: float = Settings.model_fields["ldap_cache_seconds"].default
DEFAULT_GRACE_S: float = Settings.model_fields["ldap_grace_seconds"].default
_ATTRIBUTE = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_DN_PART = re.compile(r"[A-Za-z][A-Za-z0-9-]*=[^,]+")


class LdapSettings(BaseModel):
    """The directory's address, the service account, and the two subtrees searched."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(description="ldap://host[:port] or ldaps://host[:port].")
    bind_dn: str | None = Field(default=None, description="The service account's DN; None binds anonymously.")
    bind_password: str | None = Field(default=None, description="The service account's password.", repr=False)
    user_base: str = Field(description="The subtree holding the users.")
    group_base: str = Field(description="The subtree holding the groups.")
    user_attribute: str = Field(default=DEFAULT_USER_ATTRIBUTE, description="The attribute matching the user name.")
    cache_s: float = Field(default=DEFAULT_CACHE_S, ge=0, description="How long a user's groups are reused.")
    grace_s: float = Field(default=DEFAULT_GRACE_S, ge=0,
                           description="How long past the cache time old groups serve while the directory is down.")

    @classmethod
    def from_env(cls, configured: Settings | None = None) -> LdapSettings | None:
        """None without `BOUNDLOOP_LDAP_URL`; anything malformed is a one-line `BoundloopError`."""
        chosen = configured or settings()
        url = (chosen.ldap_url or "").strip()
        if not url:
            return None
        if importlib.util.find_spec("ldap3") is None:
            raise BoundloopError("BOUNDLOOP_LDAP_URL is set: LDAP needs its extra, pip install 'boundloop[identity]'")
        if not re.fullmatch(r"ldaps?://[^/\s?#]+/?", url):
            raise BoundloopError(f"BOUNDLOOP_LDAP_URL={url!r} must be ldap://host[:port] or ldaps://host[:port]")
        user_base, group_base = (_dn(chosen, field) for field in ("ldap_user_base", "ldap_group_base"))
        bind_dn = (chosen.ldap_bind_dn or "").strip() or None
        if bind_dn is not None:
            _dn(chosen, "ldap_bind_dn")
        password = chosen.ldap_bind_password.get_secret_value() if chosen.ldap_bind_password else None
        if bind_dn is not None and password is None:
            raise BoundloopError("BOUNDLOOP_LDAP_BIND_DN is set: set BOUNDLOOP_LDAP_BIND_PASSWORD too")
        attribute = chosen.ldap_user_attribute.strip()
        if not _ATTRIBUTE.fullmatch(attribute):
            raise BoundloopError(f"BOUNDLOOP_LDAP_USER_ATTRIBUTE={attribute!r} must be an attribute name such as "
                                 "uid, sAMAccountName or userPrincipalName")
        return cls(url=url.rstrip("/"), bind_dn=bind_dn, bind_password=password, user_base=user_base,
                   group_base=group_base, user_attribute=attribute,
                   cache_s=chosen.ldap_cache_seconds, grace_s=chosen.ldap_grace_seconds)


def _dn(chosen: Settings, field: str) -> str:
    """A distinguished name such as `ou=people,dc=example,dc=com`; required."""
    name = env_name(field)
    value = (getattr(chosen, field) or "").strip()
    if not value:
        raise BoundloopError(f"BOUNDLOOP_LDAP_URL is set: set {name} too (a DN such as ou=people,dc=example,dc=com)")
    if not all(_DN_PART.fullmatch(part.strip()) for part in re.split(r"(?<!\\),", value)):
        raise BoundloopError(f"{name}={value!r} is not a distinguished name (such as ou=people,dc=example,dc=com)")
    return value
