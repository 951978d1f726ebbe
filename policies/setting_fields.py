"""`Settings`: each deployment setting declared once, as a field with its default, its rule and what it means.

The field `max_hops` is the variable `BOUNDLOOP_MAX_HOPS`; a field with a `validation_alias` is read from that
variable instead (`XDG_CACHE_HOME`). Secrets are `SecretStr`, so they never print by accident; `boundloop config`
masks them. Cross-field checks (an OpenID issuer needs an audience, LDAP needs its bases) stay with the code that
builds each part (`service.oidc_tokens`, `service.ldap_settings`), which is handed these fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, GetCoreSchemaHandler, SecretStr, ValidationInfo, model_validator
from pydantic_core import core_schema
from pydantic_settings import BaseSettings, SettingsConfigDict

from boundloop.policies.setting_rules import (
    Duration,
    Flag,
    Network,
    Networks,
    Number,
    OneOf,
    RateText,
    Rule,
    Spec,
    Whole,
)


@dataclass(frozen=True)
class Checked:
    """Field metadata: text from the environment goes through `rule`; a value given in code is taken as it is."""

    rule: Rule

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.with_info_before_validator_function(self._parse, handler(source))

    def _parse(self, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, str):
            return value
        text = value.strip()
        try:
            return self.rule.parse(text)
        except ValueError:
            alias = Settings.model_fields[info.field_name].validation_alias if info.field_name else None
            name = alias if isinstance(alias, str) else f"BOUNDLOOP_{(info.field_name or '').upper()}"
            raise ValueError(f"{name}={text!r} must be {self.rule.allowed}") from None


Whole1 = Annotated[int, Checked(Whole())]
Seconds = Annotated[float, Checked(Number())]
Rate = Annotated[tuple[int, int] | None, Checked(RateText())]


class Settings(BaseSettings):
    """What the deployment chose. Never from a request, the question or the model."""

    model_config = SettingsConfigDict(env_prefix="BOUNDLOOP_", frozen=True, extra="ignore", enable_decoding=False)

    # where things are
    index: str | None = Field(default=None, description="the index folder, or postgresql://... (the writer's URL)")
    directory: str | None = Field(default=None, description="the users-to-groups file (JSON or YAML)")
    cache: str | None = Field(default=None, description="where the built encoder and the demo index go")
    xdg_cache_home: str | None = Field(default=None, validation_alias="XDG_CACHE_HOME",
                                       description="the cache's parent when BOUNDLOOP_CACHE is unset")
    state_dir: str | None = Field(default=None, description="where SQLite keeps runs.db (default: beside the index)")
    checkpoint_url: str | None = Field(default=None, description="postgresql://...: keep runs in PostgreSQL")
    pg_reader_url: str | None = Field(default=None, description="PostgreSQL: the URL searches connect with")
    pg_reader_role: str = Field(default="boundloop_reader", description="PostgreSQL: the reader role (no reader URL)")
    pg_pool_size: Whole1 = Field(default=8, description="PostgreSQL run store: connections in the pool")
    eval_data: str | None = Field(default=None, description="the eval gate's data folder (default: ../shared/data)")

    # the per-run budget (policies.budget)
    max_hops: Whole1 = Field(default=3, description="hard limit on rounds of retrieval")
    max_tokens: Whole1 = Field(default=45_000, description="hard limit on model tokens")
    max_seconds: Seconds = Field(default=18.0, description="hard wall-clock limit, in seconds")
    max_retrieval_calls: Whole1 = Field(default=6, description="hard limit on search calls")
    max_documents: Whole1 = Field(default=40, description="hard limit on distinct documents a run reads")

    # ingest and the run store
    max_document_bytes: Whole1 = Field(default=20_000_000, description="the largest document ingest takes")
    runs_keep: Whole1 = Field(default=10_000, description="the most recent runs kept")
    runs_max_age_days: Seconds = Field(default=30.0, description="runs older than this many days are deleted")

    # the reasoner and the encoder
    model: Annotated[str, Checked(Spec(plain=("offline",)))] = Field(default="offline", description="the reasoner")
    embeddings: Annotated[str, Checked(Spec(plain=("minilm", "minilm-fp32")))] = Field(
        default="minilm", description="the encoder")
    openai_base_url: str | None = Field(default=None, description="an OpenAI-compatible endpoint (vLLM, Ollama)")
    llm_method: Annotated[str, Checked(OneOf(("json_schema", "function_calling", "json_mode")))] = Field(
        default="json_schema", description="structured-output method")
    llm_temperature: Annotated[float | None, Checked(Number(above=None, minimum=0.0, maximum=2.0))] = Field(
        default=None, description="sampling temperature (the provider's default if unset)")
    llm_timeout: Annotated[float | None, Checked(Number())] = Field(
        default=None, description="cap in seconds on one model call")
    llm_call_share: Annotated[float, Checked(Number(maximum=1.0))] = Field(
        default=0.4, description="share of the run's time left one model call may wait")
    llm_max_output_tokens: Annotated[int | None, Checked(Whole(minimum=16))] = Field(
        default=None, description="one completion cap for every step")
    prompts: str | None = Field(default=None, description="a YAML or JSON file overriding named prompt templates")

    # the service
    demo: Annotated[bool, Checked(Flag())] = Field(default=False, description="serve the demo corpus and its keys")
    access_log: Annotated[str, Checked(OneOf(("text", "json", "off")))] = Field(
        default="text", description="the access log's form")
    jwt_secret: SecretStr | None = Field(default=None, description="the HS256 secret (32 bytes or more)")
    jwt_max_ttl: Annotated[int, Checked(Duration())] = Field(default=86_400, description="longest token lifetime, s")
    max_body_bytes: Whole1 = Field(default=64 * 1024, description="the largest JSON request body")
    max_ingest_bytes: Whole1 = Field(default=8 * 1024 * 1024, description="the largest POST /ingest body")
    rate_per_key: Rate = Field(default=(120, 60), description="requests per credential: (requests, seconds)")
    rate_per_address: Rate = Field(default=(600, 60), description="requests per client address: (requests, seconds)")
    rate_storage: str | None = Field(default=None, description="redis://...: count rate limits in one store shared "
                                                               "by every worker and host (default: memory)")
    trusted_proxies: Annotated[tuple[Network, ...], Checked(Networks())] = Field(
        default=(), description="reverse proxies whose forwarded headers name the client")
    web_concurrency: Whole1 = Field(default=1, validation_alias="WEB_CONCURRENCY",
                                    description="worker processes, as uvicorn reads it (serve sets it)")
    serve_master: int | None = Field(default=None, description="set by serve for its workers: the master's process id")
    prometheus_multiproc_dir: str | None = Field(default=None, validation_alias="PROMETHEUS_MULTIPROC_DIR",
                                                 description="where workers' metrics meet (serve sets it)")

    # identity: the company's OpenID provider and LDAP / Active Directory
    oidc_issuer: str | None = Field(default=None, description="the OpenID provider's issuer URL")
    oidc_audience: str | None = Field(default=None, description="the `aud` tokens must carry")
    oidc_user_claim: str = Field(default="preferred_username", description="the claim holding the user name")
    oidc_groups_claim: str = Field(default="groups", description="the claim holding the groups")
    oidc_client_id: str | None = Field(default=None, description="the web page's client id")
    oidc_client_secret: SecretStr | None = Field(default=None, description="the web page's client secret")
    ldap_url: str | None = Field(default=None, description="ldap://host[:port] or ldaps://host[:port]")
    ldap_bind_dn: str | None = Field(default=None, description="the service account's DN")
    ldap_bind_password: SecretStr | None = Field(default=None, description="the service account's password")
    ldap_user_base: str | None = Field(default=None, description="the subtree holding the users")
    ldap_group_base: str | None = Field(default=None, description="the subtree holding the groups")
    ldap_user_attribute: str = Field(default="uid", description="the attribute matching the user name (AD: "
                                                                "sAMAccountName or userPrincipalName)")
    ldap_cache_seconds: Annotated[float, Checked(Number(above=None, minimum=0.0))] = Field(
        default=60.0, description="how long a user's groups are reused")
    ldap_grace_seconds: Annotated[float, Checked(Number(above=None, minimum=0.0))] = Field(
        default=300.0, description="how long past the cache time old groups serve while LDAP is down")

    debug: Annotated[bool, Checked(Flag())] = Field(default=False, description="show tracebacks of internal errors")

    @model_validator(mode="before")
    @classmethod
    def _blank_is_unset(cls, values: Any) -> Any:
        """An empty or blank variable is its default, as if it were unset."""
        if isinstance(values, dict):
            return {key: value for key, value in values.items() if not (isinstance(value, str) and not value.strip())}
        return values
