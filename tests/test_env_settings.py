"""Numeric and enumerated `BOUNDLOOP_*` settings: one line naming the variable, the value and what is allowed."""

from __future__ import annotations

import ipaddress
from typing import get_args

import pytest

from boundloop.policies.budget import BudgetLimits
from boundloop.policies.env_settings import RULES, SettingError, check_environment, read
from boundloop.runstore.retention import Retention

BAD = {  # a value each variable refuses
    "BOUNDLOOP_MAX_HOPS": "0", "BOUNDLOOP_MAX_TOKENS": "lots", "BOUNDLOOP_MAX_SECONDS": "inf",
    "BOUNDLOOP_MAX_RETRIEVAL_CALLS": "2.5", "BOUNDLOOP_DEMO": "maybe", "BOUNDLOOP_JWT_MAX_TTL": "forever",
    "BOUNDLOOP_MAX_BODY_BYTES": "0", "BOUNDLOOP_MAX_INGEST_BYTES": "-1", "BOUNDLOOP_RATE_PER_KEY": "5/0s",
    "BOUNDLOOP_RATE_PER_ADDRESS": "fast", "BOUNDLOOP_TRUSTED_PROXIES": "10.0.0.1,,proxy.local",
    "BOUNDLOOP_ACCESS_LOG": "xml", "BOUNDLOOP_MAX_DOCUMENT_BYTES": "20MB", "BOUNDLOOP_RUNS_KEEP": "0",
    "BOUNDLOOP_RUNS_MAX_AGE_DAYS": "nan",
    "BOUNDLOOP_PG_POOL_SIZE": "eight", "BOUNDLOOP_MODEL": "gpt-4o", "BOUNDLOOP_EMBEDDINGS": "openai:",
    "BOUNDLOOP_LLM_METHOD": "xml", "BOUNDLOOP_LLM_TEMPERATURE": "9", "BOUNDLOOP_LLM_TIMEOUT": "-1",
    "BOUNDLOOP_LLM_CALL_SHARE": "1.5", "BOUNDLOOP_LLM_MAX_OUTPUT_TOKENS": "8",
    "BOUNDLOOP_LDAP_CACHE_SECONDS": "-1", "BOUNDLOOP_LDAP_GRACE_SECONDS": "a while",
}


@pytest.fixture
def clean(monkeypatch):
    for name in RULES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_every_declared_variable_has_a_bad_value_here():
    assert set(BAD) == set(RULES)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_value_is_one_line_naming_variable_value_and_what_is_allowed(clean, name):
    clean.setenv(name, BAD[name])
    with pytest.raises(SettingError) as refused:
        check_environment()
    message = str(refused.value)
    assert message == f"{name}={BAD[name]!r} must be {RULES[name].allowed}"
    assert "\n" not in message


def test_unset_or_blank_is_the_default_and_good_values_parse(clean):
    assert read("BOUNDLOOP_MAX_HOPS", 3) == 3
    clean.setenv("BOUNDLOOP_MAX_HOPS", "  ")
    assert read("BOUNDLOOP_MAX_HOPS", 3) == 3
    check_environment()
    good = {"BOUNDLOOP_MAX_HOPS": ("5", 5), "BOUNDLOOP_MAX_SECONDS": ("4.5", 4.5), "BOUNDLOOP_DEMO": ("Yes", True),
            "BOUNDLOOP_JWT_MAX_TTL": ("90m", 5400), "BOUNDLOOP_RATE_PER_KEY": ("30/10s", (30, 10)),
            "BOUNDLOOP_ACCESS_LOG": ("JSON", "json"), "BOUNDLOOP_LLM_TEMPERATURE": ("0", 0.0),
            "BOUNDLOOP_MODEL": ("openai:gpt-4o-mini", "openai:gpt-4o-mini"),
            "BOUNDLOOP_TRUSTED_PROXIES": ("10.0.0.5, 192.168.0.0/16,::1", (
                ipaddress.ip_network("10.0.0.5/32"), ipaddress.ip_network("192.168.0.0/16"),
                ipaddress.ip_network("::1/128")))}
    for name, (text, value) in good.items():
        clean.setenv(name, text)
        assert read(name) == value, name
    check_environment()


def test_the_readers_use_the_table(clean):
    """The budget and the retention read through the same rules: their errors are the table's."""
    clean.setenv("BOUNDLOOP_MAX_TOKENS", "lots")
    with pytest.raises(SettingError, match="BOUNDLOOP_MAX_TOKENS='lots' must be a whole number, at least 1"):
        BudgetLimits.from_env()
    clean.setenv("BOUNDLOOP_RUNS_MAX_AGE_DAYS", "0")
    with pytest.raises(SettingError, match="BOUNDLOOP_RUNS_MAX_AGE_DAYS='0' must be a number more than 0"):
        Retention.from_env()


def test_the_enumerations_match_the_code_that_uses_them():
    from boundloop.reasoners.llm.settings import Method
    from boundloop.service.access_log import FORMATS

    assert set(FORMATS) == set(RULES["BOUNDLOOP_ACCESS_LOG"].choices)
    assert set(get_args(Method)) == set(RULES["BOUNDLOOP_LLM_METHOD"].choices)
