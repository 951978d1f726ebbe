"""The settings object: numeric and enumerated `BOUNDLOOP_*` settings are one line naming the variable, the value
and what is allowed; unset or blank is the default; the object follows the environment and can be overridden."""

from __future__ import annotations

import ipaddress
from typing import get_args

import pytest

from boundloop.policies.budget import BudgetLimits
from boundloop.policies.settings import SettingError, Settings, rules, settings, use_settings
from boundloop.runstore.retention import Retention

BAD = {  # a value each variable refuses
    "BOUNDLOOP_MAX_HOPS": "0", "BOUNDLOOP_MAX_TOKENS": "lots", "BOUNDLOOP_MAX_SECONDS": "inf",
    "BOUNDLOOP_MAX_RETRIEVAL_CALLS": "2.5", "BOUNDLOOP_MAX_DOCUMENTS": "many",
    "BOUNDLOOP_DEMO": "maybe", "BOUNDLOOP_JWT_MAX_TTL": "forever",
    "BOUNDLOOP_MAX_BODY_BYTES": "0", "BOUNDLOOP_MAX_INGEST_BYTES": "-1", "BOUNDLOOP_RATE_PER_KEY": "5/0s",
    "BOUNDLOOP_RATE_PER_ADDRESS": "fast", "BOUNDLOOP_TRUSTED_PROXIES": "10.0.0.1,,proxy.local",
    "BOUNDLOOP_ACCESS_LOG": "xml", "WEB_CONCURRENCY": "0", "BOUNDLOOP_MAX_DOCUMENT_BYTES": "20MB",
    "BOUNDLOOP_RUNS_KEEP": "0",
    "BOUNDLOOP_RUNS_MAX_AGE_DAYS": "nan",
    "BOUNDLOOP_PG_POOL_SIZE": "eight", "BOUNDLOOP_MODEL": "gpt-4o", "BOUNDLOOP_EMBEDDINGS": "openai:",
    "BOUNDLOOP_LLM_METHOD": "xml", "BOUNDLOOP_LLM_TEMPERATURE": "9", "BOUNDLOOP_LLM_TIMEOUT": "-1",
    "BOUNDLOOP_LLM_CALL_SHARE": "1.5", "BOUNDLOOP_LLM_MAX_OUTPUT_TOKENS": "8",
    "BOUNDLOOP_LDAP_CACHE_SECONDS": "-1", "BOUNDLOOP_LDAP_GRACE_SECONDS": "a while", "BOUNDLOOP_DEBUG": "2",
}
RULES = rules()


def check_environment() -> None:
    settings()


def read(name: str, default=None):
    return getattr(settings(), name.removeprefix("BOUNDLOOP_").lower())


@pytest.fixture
def clean(monkeypatch):
    for name in Settings.model_fields:
        monkeypatch.delenv(f"BOUNDLOOP_{name.upper()}", raising=False)
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
    assert read("BOUNDLOOP_MAX_HOPS") == 3
    clean.setenv("BOUNDLOOP_MAX_HOPS", "  ")
    assert read("BOUNDLOOP_MAX_HOPS") == 3
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
    """The budget and the retention read the settings object: their errors are its rules'."""
    clean.setenv("BOUNDLOOP_MAX_TOKENS", "lots")
    with pytest.raises(SettingError, match="BOUNDLOOP_MAX_TOKENS='lots' must be a whole number, at least 1"):
        BudgetLimits.from_env()
    clean.delenv("BOUNDLOOP_MAX_TOKENS")
    clean.setenv("BOUNDLOOP_RUNS_MAX_AGE_DAYS", "0")
    with pytest.raises(SettingError, match="BOUNDLOOP_RUNS_MAX_AGE_DAYS='0' must be a number more than 0"):
        Retention.from_env()


def test_the_enumerations_match_the_code_that_uses_them():
    from boundloop.reasoners.llm.settings import Method
    from boundloop.service.access_log import FORMATS

    assert set(FORMATS) == set(RULES["BOUNDLOOP_ACCESS_LOG"].choices)
    assert set(get_args(Method)) == set(RULES["BOUNDLOOP_LLM_METHOD"].choices)


def test_the_object_is_read_once_and_follows_the_environment(clean):
    first = settings()
    assert settings() is first  # read once while the environment stays as it is
    clean.setenv("BOUNDLOOP_MAX_HOPS", "5")
    assert settings().max_hops == 5 and settings() is not first
    clean.delenv("BOUNDLOOP_MAX_HOPS")
    assert settings().max_hops == 3


def test_a_test_can_override_the_settings_without_the_environment(clean):
    clean.setenv("BOUNDLOOP_MAX_HOPS", "5")
    with use_settings(Settings(max_hops=1, max_tokens=10)):
        assert BudgetLimits.from_env().max_hops == 1 and BudgetLimits.from_env().max_tokens == 10
    assert BudgetLimits.from_env().max_hops == 5


def test_free_form_settings_blank_is_unset_and_secrets_do_not_print(clean):
    clean.setenv("BOUNDLOOP_INDEX", "   ")
    clean.setenv("BOUNDLOOP_JWT_SECRET", "s" * 40)
    chosen = settings()
    assert chosen.index is None
    assert "s" * 40 not in repr(chosen) and chosen.jwt_secret.get_secret_value() == "s" * 40


def test_a_cli_command_names_the_bad_setting_in_one_line(clean, capsys):
    from boundloop.cli.main import main

    clean.setenv("BOUNDLOOP_MAX_HOPS", "0")
    assert main(["config"]) == 2
    assert capsys.readouterr().err == "boundloop: error: BOUNDLOOP_MAX_HOPS='0' must be a whole number, at least 1\n"


def test_the_top_level_help_does_not_load_the_settings():
    """`boundloop --help` stays fast: pydantic-settings is imported by the commands that read settings, not by it."""
    import subprocess
    import sys

    probe = ("import sys; from boundloop.cli.main import main\n"
             "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print('pydantic_settings' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "False"


def test_boundloop_debug_shows_the_traceback_of_an_internal_error(clean, capsys):
    from boundloop.cli import config_command
    from boundloop.cli.main import main

    def broken(args):
        raise RuntimeError("internal")

    clean.setattr(config_command, "run_config", broken)
    assert main(["config"]) == 1
    assert "internal error (RuntimeError); set BOUNDLOOP_DEBUG=1" in capsys.readouterr().err
    clean.setenv("BOUNDLOOP_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["config"])
