"""The effective settings as `boundloop config` shows them: each value, where it came from, secrets masked.

A value's source is `flag` (given on the command line of the command being described), `environment` (its
variable is set and not blank) or `default`. Secrets never show: a `SecretStr` field, any variable named like a
secret (`*SECRET*`, `*PASSWORD*`, `*TOKEN*`, `*API_KEY*`) and the password inside a URL
(`postgresql://writer:****@db/boundloop`).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import SecretStr

from boundloop.policies.settings import Settings, env_name

Source = Literal["flag", "environment", "default"]
MASK = "****"
SECRET_NAME = re.compile(r"(^|_)(SECRET|PASSWORD|TOKEN|API_KEY|PRIVATE_KEY)(_|$)")
_URL_PASSWORD = re.compile(r"(?P<head>[a-z][a-z0-9+.-]*://[^/@:\s]*):(?P<password>[^@/\s]*)@", re.IGNORECASE)
_QUERY_PASSWORD = re.compile(r"(?P<head>[?&](password|sslpassword)=)[^&\s]*", re.IGNORECASE)


@dataclass(frozen=True)
class Row:
    """One setting: its variable, its field, the value shown (masked) and where it came from."""

    name: str
    field: str
    value: Any
    source: Source
    flag: str | None = None


def is_secret(field: str) -> bool:
    """Whether a field's value is masked: declared `SecretStr`, or named like a secret."""
    annotation = str(Settings.model_fields[field].annotation)
    return "SecretStr" in annotation or bool(SECRET_NAME.search(env_name(field)))


def masked_url(text: str) -> str:
    """`postgresql://writer:s3cret@db/x?password=p` as `postgresql://writer:****@db/x?password=****`."""
    text = _URL_PASSWORD.sub(lambda m: f"{m['head']}:{MASK}@", text)
    return _QUERY_PASSWORD.sub(lambda m: f"{m['head']}{MASK}", text)


def shown(field: str, value: Any) -> Any:
    """The value as JSON can carry it, with secrets masked; None stays None (unset)."""
    if value is None:
        return None
    if isinstance(value, SecretStr) or is_secret(field):
        return MASK
    if isinstance(value, tuple) and value and isinstance(value[0], ipaddress.IPv4Network | ipaddress.IPv6Network):
        return [str(network) for network in value]
    if field.startswith("rate_per_") and isinstance(value, tuple):
        return f"{value[0]}/{value[1]}s"
    if isinstance(value, str):
        return masked_url(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def rows(configured: Settings, flags: Mapping[str, tuple[str, Any]] | None = None) -> list[Row]:
    """Every setting in declaration order; `flags` maps a field to the flag that set it and its value."""
    flags = flags or {}
    out = []
    for field in Settings.model_fields:
        if field in flags:
            flag, value = flags[field]
            out.append(Row(env_name(field), field, shown(field, value), "flag", flag))
        else:
            source: Source = "environment" if field in configured.model_fields_set else "default"
            out.append(Row(env_name(field), field, shown(field, getattr(configured, field)), source))
    return out
