"""The service's deployment settings, read once from the environment; never from a request."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from boundloop.policies.errors import BoundloopError
from boundloop.policies.setting_rules import Network
from boundloop.policies.settings import Settings, settings
from boundloop.runstore.location import checkpoint_url_from_env
from boundloop.service.identity import DEFAULT_JWT_MAX_TTL_S
from boundloop.service.ldap_settings import LdapSettings
from boundloop.service.oidc_tokens import OidcSettings
from boundloop.service.rate_limit import Rate

MAX_BODY_BYTES: int = Settings.model_fields["max_body_bytes"].default
MAX_INGEST_BYTES: int = Settings.model_fields["max_ingest_bytes"].default
MIN_JWT_SECRET_BYTES = 32


class ServiceSettings(BaseModel):
    """Where the index, directory and checkpoints are, the request limits, and how callers prove who they are.

    Built directly (in tests), rate limits are off; `from_env` turns them on with the defaults.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: str | None = Field(default=None, description="Index folder; None means the bundled demo corpus.")
    directory: str | None = Field(default=None, description="Users-to-groups file (with api_key_sha256 entries).")
    demo: bool = Field(default=False, description="Serve the demo corpus and accept its published demo API keys.")
    checkpoint_url: str | None = Field(
        default=None, description="postgresql://... for shared PostgreSQL checkpoints; None means SQLite."
    )
    jwt_secret: str | None = Field(default=None, description="HS256 secret; None disables JWT bearer tokens.")
    jwt_max_ttl_s: int = Field(default=DEFAULT_JWT_MAX_TTL_S, gt=0, description="Longest JWT lifetime accepted.")
    max_body_bytes: int = Field(default=MAX_BODY_BYTES, gt=0, description="Largest JSON request body.")
    max_ingest_bytes: int = Field(default=MAX_INGEST_BYTES, gt=0, description="Largest POST /ingest body.")
    rate_per_key: Rate | None = Field(default=None, description="Requests per credential; None is no limit.")
    rate_per_address: Rate | None = Field(default=None, description="Requests per client address; None is no limit.")
    rate_storage: str | None = Field(
        default=None, description="Where rate limits are counted: redis://... shared by every worker; None is memory."
    )
    workers: int = Field(default=1, gt=0, description="Worker processes serving (WEB_CONCURRENCY); with counts in "
                                                      "memory each allows its share of the rates.")
    trusted_proxies: tuple[Network, ...] = Field(
        default=(), description="Peers whose X-Forwarded-For, Forwarded or X-Real-IP names the client address."
    )

    oidc: OidcSettings | None = Field(default=None, description="The OpenID provider whose tokens are accepted.")
    ldap: LdapSettings | None = Field(default=None, description="The LDAP / AD directory groups come from.")

    @field_validator("jwt_secret")
    @classmethod
    def _long_enough(cls, secret: str | None) -> str | None:
        if secret is not None and len(secret.encode("utf-8")) < MIN_JWT_SECRET_BYTES:
            raise ValueError(
                f"BOUNDLOOP_JWT_SECRET must be at least {MIN_JWT_SECRET_BYTES} bytes; generate one with "
                "python3 -c 'import secrets; print(secrets.token_urlsafe(48))'"
            )
        return secret

    @classmethod
    def from_env(cls, configured: Settings | None = None) -> ServiceSettings:
        """The service's part of the deployment settings (`policies.settings`; docs/service.md lists them).

        A bad value is a clear error: the numeric and enumerated ones when the settings are read, the JWT secret,
        the checkpoint URL and the `_OIDC_*` and `_LDAP_*` settings (docs/identity.md) here.
        """
        chosen = configured or settings()
        url = checkpoint_url_from_env(chosen)
        secret = chosen.jwt_secret.get_secret_value() if chosen.jwt_secret else None
        try:
            cls._long_enough(secret)
        except ValueError as exc:
            raise BoundloopError(str(exc)) from None
        return cls(
            index=chosen.index,
            directory=chosen.directory,
            demo=chosen.demo,
            checkpoint_url=url,
            jwt_secret=secret,
            jwt_max_ttl_s=chosen.jwt_max_ttl,
            max_body_bytes=chosen.max_body_bytes,
            max_ingest_bytes=chosen.max_ingest_bytes,
            rate_per_key=Rate.of(chosen.rate_per_key),
            rate_per_address=Rate.of(chosen.rate_per_address),
            rate_storage=chosen.rate_storage,
            workers=chosen.web_concurrency,
            trusted_proxies=chosen.trusted_proxies,
            oidc=OidcSettings.from_env(chosen),
            ldap=LdapSettings.from_env(chosen),
        )
