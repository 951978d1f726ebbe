"""Bearer tokens from the company's OpenID provider: who the caller is, and the groups the token names.

A token is accepted only when it is signed with RS256, ES256 or PS256 by a key the issuer publishes (`none` and HMAC
are refused before any key is looked at, so a token "signed" with the public key as an HMAC secret goes nowhere),
names the configured issuer and audience, and is inside its `nbf`..`exp` window give or take 60 seconds. Every
refusal is `AuthenticationFailed` with a short reason.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import jwt
from pydantic import BaseModel, ConfigDict, Field

from boundloop.policies.errors import BoundloopError
from boundloop.policies.settings import Settings, settings
from boundloop.service.errors import AuthenticationFailed
from boundloop.service.oidc_keys import ProviderKeys

ALGORITHMS = ("RS256", "ES256", "PS256")
LEEWAY_S = 60
DEFAULT_USER_CLAIM: str = Settings.model_fields["oidc_user_claim"].default
DEFAULT_GROUPS_CLAIM: str = Settings.model_fields["oidc_groups_claim"].default


class OidcSettings(BaseModel):
    """The provider this service trusts (`BOUNDLOOP_OIDC_*`); the client id and secret serve the web sign-in."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    issuer: str = Field(description="The issuer URL, exactly as the provider's tokens name it.")
    audience: str = Field(description="The `aud` tokens must carry: this API's client id or identifier URI.")
    user_claim: str = Field(default=DEFAULT_USER_CLAIM, description="The claim holding the user name.")
    groups_claim: str = Field(default=DEFAULT_GROUPS_CLAIM, description="The claim holding the groups.")
    client_id: str | None = Field(default=None, description="The web page's client id (sign-in flow).")
    client_secret: str | None = Field(default=None, description="The web page's client secret.")

    @classmethod
    def from_env(cls, configured: Settings | None = None) -> OidcSettings | None:
        """None without `BOUNDLOOP_OIDC_ISSUER`; a missing or malformed companion setting is a `BoundloopError`."""
        chosen = configured or settings()
        issuer = (chosen.oidc_issuer or "").strip()
        if not issuer:
            return None
        if not issuer.startswith(("https://", "http://")):
            raise BoundloopError(f"BOUNDLOOP_OIDC_ISSUER={issuer!r} must be an https:// URL")
        client_id = (chosen.oidc_client_id or "").strip() or None
        audience = (chosen.oidc_audience or "").strip() or client_id
        if not audience:
            raise BoundloopError("BOUNDLOOP_OIDC_ISSUER is set: set BOUNDLOOP_OIDC_AUDIENCE too (the `aud` tokens "
                                 "for this service carry)")
        return cls(issuer=issuer, audience=audience,
                   user_claim=chosen.oidc_user_claim.strip(), groups_claim=chosen.oidc_groups_claim.strip(),
                   client_id=client_id,
                   client_secret=chosen.oidc_client_secret.get_secret_value() if chosen.oidc_client_secret else None)


@dataclass(frozen=True)
class TokenIdentity:
    """A verified token's user, its groups (None when the token has no groups claim) and when it expires."""

    user: str
    groups: frozenset[str] | None
    expires: float


def token_algorithm(token: str) -> str | None:
    """The `alg` in a token's header, unverified; None when the header cannot be read."""
    try:
        alg = jwt.get_unverified_header(token).get("alg")
    except jwt.PyJWTError:
        return None
    return alg if isinstance(alg, str) else None


class OidcVerifier:
    """Checks a provider's tokens against its published keys."""

    def __init__(self, settings: OidcSettings, keys: ProviderKeys) -> None:
        self.settings = settings
        self.keys = keys

    def verify(self, token: str, audience: str | None = None, nonce: str | None = None) -> TokenIdentity:
        """The identity in a valid token; `AuthenticationFailed` with a short reason otherwise."""
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise AuthenticationFailed("invalid token: its header cannot be read") from None
        alg = header.get("alg")
        if alg not in ALGORITHMS:
            raise AuthenticationFailed(f"invalid token: algorithm {alg!r} is not accepted (only "
                                       f"{', '.join(ALGORITHMS)})")
        kid = header.get("kid")
        key = self.keys.key_for(kid if isinstance(kid, str) else None)
        try:
            claims = jwt.decode(token, key.key, algorithms=[alg], audience=audience or self.settings.audience,
                                issuer=self.settings.issuer, leeway=LEEWAY_S,
                                options={"require": ["exp", "iss", "aud"]})
        except jwt.ExpiredSignatureError:
            raise AuthenticationFailed("invalid token: expired") from None
        except jwt.ImmatureSignatureError:
            raise AuthenticationFailed("invalid token: not valid yet") from None
        except jwt.InvalidAudienceError:
            raise AuthenticationFailed("invalid token: wrong audience") from None
        except jwt.InvalidIssuerError:
            raise AuthenticationFailed("invalid token: wrong issuer") from None
        except jwt.InvalidSignatureError:
            raise AuthenticationFailed("invalid token: bad signature") from None
        except jwt.PyJWTError:
            raise AuthenticationFailed("invalid token") from None
        if nonce is not None and claims.get("nonce") != nonce:
            raise AuthenticationFailed("invalid token: the sign-in's nonce does not match")
        return self._identity(claims)

    def _identity(self, claims: dict[str, Any]) -> TokenIdentity:
        user = claims.get(self.settings.user_claim)
        if not isinstance(user, str) or not user.strip():
            raise AuthenticationFailed(f"invalid token: no {self.settings.user_claim!r} claim naming the user")
        if user != user.strip() or any(unicodedata.category(c) in ("Cc", "Cf") for c in user):
            # 'dave ' or 'dave' with a zero-width space is another name to the provider, never dave here
            raise AuthenticationFailed(f"invalid token: its {self.settings.user_claim!r} claim has spaces around it or "
                                       "invisible characters in it")
        raw = claims.get(self.settings.groups_claim)
        if raw is not None and not (isinstance(raw, list) and all(isinstance(g, str) for g in raw)):
            raise AuthenticationFailed(f"invalid token: its {self.settings.groups_claim!r} claim is not a list "
                                       "of names")
        expires = claims.get("exp")
        if isinstance(expires, bool) or not isinstance(expires, int | float):
            raise AuthenticationFailed("invalid token: its 'exp' claim is not a number of seconds")
        groups = frozenset(g for g in raw if g) if raw is not None else None
        return TokenIdentity(user=user, groups=groups, expires=float(expires))
