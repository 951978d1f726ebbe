"""Who the callers are and where their groups come from: the directory file, an OpenID provider, LDAP or AD.

- directory file only: API keys and HS256 JWTs; groups from the file (the seed's behaviour);
- with an OpenID provider: its tokens too; groups from the token's groups claim, or from LDAP when it is set;
- the file's users keep the file's groups either way, so scripts' API keys go on working.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from boundloop.policies.entitlements import DirectorySource, EntitlementResolver
from boundloop.policies.group_sources import FederatedResolver, GroupSource, TokenGroups
from boundloop.service.identity import IdentityResolver
from boundloop.service.ldap_settings import LdapSettings
from boundloop.service.oidc_keys import ProviderKeys
from boundloop.service.oidc_tokens import LEEWAY_S, OidcVerifier, TokenIdentity
from boundloop.service.settings import ServiceSettings
from boundloop.service.web_session import SessionSeal

if TYPE_CHECKING:
    from boundloop.service.ldap_groups import LdapGroups


@dataclass(frozen=True)
class WebSignIn:
    """What the web page's sign-in flow needs: the provider, its token checks, the page's client and the seal."""

    provider: ProviderKeys
    verifier: OidcVerifier
    client_id: str
    client_secret: str
    seal: SessionSeal


@dataclass
class IdentitySources:
    """The identity resolver, the entitlement resolver, and the outside services they ask (for `/healthz`)."""

    identity: IdentityResolver
    resolver: EntitlementResolver
    provider: ProviderKeys | None = None
    oidc: OidcVerifier | None = None
    ldap: LdapGroups | None = None
    web: WebSignIn | None = None
    """The web sign-in; None without `BOUNDLOOP_OIDC_CLIENT_ID` and `_CLIENT_SECRET`."""
    token_groups: TokenGroups | None = None

    def remember(self, token: TokenIdentity) -> None:
        """Keep a verified token's groups for this user's runs, unless LDAP is the word on groups."""
        if self.token_groups is not None and self.ldap is None:
            self.token_groups.remember(token.user, token.groups or frozenset(), token.expires + LEEWAY_S)

    def problems(self) -> list[str]:
        """Why tokens or groups cannot be checked right now; names the part, never a URL or a user."""
        found = []
        if self.provider is not None:
            self.provider.retry_if_due()
            if self.provider.problem:
                found.append("the OpenID provider's signing keys are unavailable: its tokens are refused")
        if self.ldap is not None and self.ldap.problem:
            found.append("the group directory (LDAP) cannot be reached")
        return found


def build_identity(settings: ServiceSettings, directory: DirectorySource) -> IdentitySources:
    """The resolvers for these settings; an OpenID provider is asked for its keys now (unreachable: degraded)."""
    ldap_groups = _ldap_groups(settings.ldap) if settings.ldap else None
    if settings.oidc is None:
        identity = IdentityResolver(directory, settings.jwt_secret, settings.jwt_max_ttl_s)
        resolver = FederatedResolver(directory, ldap_groups) if ldap_groups else EntitlementResolver(directory)
        return IdentitySources(identity, resolver, ldap=ldap_groups)
    provider = ProviderKeys(settings.oidc.issuer)
    provider.refresh()
    verifier = OidcVerifier(settings.oidc, provider)
    token_groups = TokenGroups()
    source: GroupSource = ldap_groups if ldap_groups is not None else token_groups
    oidc = settings.oidc
    web = WebSignIn(provider, verifier, oidc.client_id, oidc.client_secret, SessionSeal(oidc.client_secret)) \
        if oidc.client_id and oidc.client_secret else None
    sources = IdentitySources(IdentityResolver(directory, settings.jwt_secret, settings.jwt_max_ttl_s),
                              FederatedResolver(directory, source), provider, verifier, ldap_groups, web, token_groups)
    sources.identity = IdentityResolver(directory, settings.jwt_secret, settings.jwt_max_ttl_s, oidc=verifier,
                                        on_token=sources.remember)
    return sources


def _ldap_groups(settings: LdapSettings) -> LdapGroups:
    """The LDAP client: imported only when configured, since `ldap3` comes with the `identity` extra."""
    from boundloop.service.ldap_groups import LdapGroups

    return LdapGroups(settings)
