"""Every deployment setting in one typed object, read from the environment once: `settings()`.

Each `BOUNDLOOP_*` variable is one field of `Settings` (pydantic-settings; the field `max_hops` is
`BOUNDLOOP_MAX_HOPS`), with its default and, for numbers and words, the rule of `policies.setting_rules` that
checks it. A bad value is one line naming the variable, the value and what is allowed (`SettingError`); an unset or
blank variable is its default. This is the only module that reads the environment (tests/test_settings_source.py):
the others receive a `Settings`, or what they need of it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pydantic import ValidationError

from boundloop.policies.setting_fields import Checked, Settings
from boundloop.policies.setting_rules import Rule, SettingError

__all__ = ["Settings", "SettingError", "settings", "use_settings", "env_name", "rules", "from_environment",
           "export", "set_in_environment"]

PREFIX = "BOUNDLOOP_"
_override: list[Settings] = []


def env_name(field: str) -> str:
    """The variable a field is read from: `max_hops` is `BOUNDLOOP_MAX_HOPS`, an aliased field its alias."""
    alias = Settings.model_fields[field].validation_alias
    return alias if isinstance(alias, str) else PREFIX + field.upper()


@functools.cache
def _fields_by_name() -> dict[str, str]:
    return {env_name(field): field for field in Settings.model_fields}


def rules() -> Mapping[str, Rule]:
    """The checked variables and their rules, by variable name."""
    return {env_name(field): meta.rule for field, info in Settings.model_fields.items()
            for meta in info.metadata if isinstance(meta, Checked)}


def settings() -> Settings:
    """The settings this process runs with: read and checked once for each state of its `BOUNDLOOP_*` variables.

    A process that sets a variable (`serve` passing its flags to its workers, a test's monkeypatch) gets the new
    value on the next call; otherwise every call returns the same object. `use_settings` overrides it in tests.
    """
    if _override:
        return _override[-1]
    return _load(_snapshot())


def _snapshot() -> tuple[tuple[str, str], ...]:
    names = _fields_by_name()
    return tuple(sorted((key, value) for key, value in os.environ.items() if key in names or key.startswith(PREFIX)))


@functools.lru_cache(maxsize=16)
def _load(snapshot: tuple[tuple[str, str], ...]) -> Settings:
    del snapshot  # the cache key: pydantic-settings reads the same variables from os.environ
    return from_environment()


def from_environment() -> Settings:
    """A fresh `Settings` from the environment; the first bad value is a one-line `SettingError`."""
    try:
        return Settings()
    except ValidationError as exc:
        raise SettingError(_first_problem(exc)) from None


def _first_problem(exc: ValidationError) -> str:
    error = exc.errors()[0]
    if "error" in error.get("ctx", {}):  # a rule's message, already naming the variable
        return str(error["ctx"]["error"])
    field = str(error["loc"][0]) if error["loc"] else ""
    name = env_name(field) if field in Settings.model_fields else field
    return f"{name}={error.get('input')!r}: {error['msg']}"


@contextmanager
def use_settings(override: Settings) -> Iterator[Settings]:
    """Within the block, `settings()` is `override` (tests: `Settings(max_hops=1)` without touching the env)."""
    _override.append(override)
    try:
        yield override
    finally:
        _override.remove(override)


def export(values: Mapping[str, Any]) -> None:
    """Put settings given on a command line into the environment, for the worker processes a command starts.

    `serve --index DIR --workers 2` starts workers that read their settings afresh; None leaves a variable as it is,
    False or "" clears it. Field names (`index`), not variable names.
    """
    for field, value in values.items():
        if value is None:
            continue
        set_in_environment(env_name(field), "1" if value is True else "" if value is False else str(value))


def set_in_environment(name: str, value: str | None) -> None:
    """Set (None: remove) one variable for this process and the processes it starts."""
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
