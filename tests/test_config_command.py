"""`boundloop config`: every setting with its value and its source (default, environment, flag), secrets masked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from boundloop.cli.config_report import is_secret, masked_url
from boundloop.cli.main import main
from boundloop.policies.settings import Settings, env_name

REPO = Path(__file__).resolve().parents[1]
SECRETS = {"BOUNDLOOP_JWT_SECRET": "jwt-" + "s" * 40, "BOUNDLOOP_OIDC_CLIENT_SECRET": "client-secret-123",
           "BOUNDLOOP_LDAP_BIND_PASSWORD": "ldap-pass-456",
           "BOUNDLOOP_CHECKPOINT_URL": "postgresql://runs:pg-pass-789@db:5432/runs",
           "BOUNDLOOP_RATE_STORAGE": "redis://:redis-pass-321@cache:6379/0"}
NOT_SECRETS = {"rate_per_key": "a request rate per API key", "max_tokens": "a count",
               "llm_max_output_tokens": "a count"}


@pytest.fixture
def clean(monkeypatch):
    for field in Settings.model_fields:
        monkeypatch.delenv(env_name(field), raising=False)
    return monkeypatch


def _config(capsys, *argv: str) -> dict:
    assert main(["config", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_an_unset_setting_is_its_default(clean, capsys):
    shown = _config(capsys)["settings"]
    assert shown["BOUNDLOOP_MAX_HOPS"] == {"value": 3, "source": "default", "flag": None}
    assert shown["BOUNDLOOP_INDEX"] == {"value": None, "source": "default", "flag": None}
    assert shown["BOUNDLOOP_RATE_PER_KEY"]["value"] == "120/60s"
    assert set(shown) == {env_name(field) for field in Settings.model_fields}


def test_a_variable_set_in_the_environment_says_so(clean, capsys):
    clean.setenv("BOUNDLOOP_MAX_HOPS", "5")
    clean.setenv("BOUNDLOOP_TRUSTED_PROXIES", "10.0.0.5,192.168.0.0/16")
    clean.setenv("BOUNDLOOP_DIRECTORY", "   ")  # blank is unset
    shown = _config(capsys)["settings"]
    assert shown["BOUNDLOOP_MAX_HOPS"] == {"value": 5, "source": "environment", "flag": None}
    assert shown["BOUNDLOOP_TRUSTED_PROXIES"]["value"] == ["10.0.0.5/32", "192.168.0.0/16"]
    assert shown["BOUNDLOOP_DIRECTORY"]["source"] == "default"


def test_a_flag_of_the_described_command_wins_over_the_environment(clean, capsys):
    clean.setenv("BOUNDLOOP_INDEX", "/from/env")
    report = _config(capsys, "serve", "--port", "9000", "--index", "/from/flag", "--access-log", "json")
    assert report["command"] == "serve"
    assert report["settings"]["BOUNDLOOP_INDEX"] == {"value": "/from/flag", "source": "flag", "flag": "--index"}
    assert report["settings"]["BOUNDLOOP_ACCESS_LOG"] == {"value": "json", "source": "flag", "flag": "--access-log"}
    assert report["settings"]["BOUNDLOOP_DIRECTORY"]["source"] == "default"
    options = {option["flag"]: option for option in report["options"]}
    assert options["--port"] == {"flag": "--port", "value": 9000, "source": "flag"}
    assert options["--host"] == {"flag": "--host", "value": "127.0.0.1", "source": "default"}
    # without the flag the same command reads the environment
    assert _config(capsys, "ingest", "docs.jsonl")["settings"]["BOUNDLOOP_INDEX"]["source"] == "environment"


def test_a_flag_of_a_nested_command_counts_too(clean, capsys):
    report = _config(capsys, "runs", "prune", "--index", "/runs/here")
    assert report["settings"]["BOUNDLOOP_INDEX"] == {"value": "/runs/here", "source": "flag", "flag": "--index"}
    assert report["options"] == []  # the top level's --version is no option of `runs prune`


def test_secrets_and_passwords_in_urls_are_masked(clean, capsys):
    for name, value in SECRETS.items():
        clean.setenv(name, value)
    flagged = "postgresql://writer:flag-pass-000@db/index?sslmode=require"
    for argv in (["config", "--json", "doctor", "--index", flagged], ["config", "doctor", "--index", flagged]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        leaked = [*SECRETS.values(), "flag-pass-000", "pg-pass-789", "redis-pass-321"]
        assert not any(secret in out for secret in leaked), out
        assert "****" in out
    shown = _config(capsys)["settings"]
    assert shown["BOUNDLOOP_JWT_SECRET"] == {"value": "****", "source": "environment", "flag": None}
    assert shown["BOUNDLOOP_CHECKPOINT_URL"]["value"] == "postgresql://runs:****@db:5432/runs"
    assert shown["BOUNDLOOP_RATE_STORAGE"]["value"] == "redis://:****@cache:6379/0"
    assert shown["BOUNDLOOP_OIDC_CLIENT_SECRET"]["value"] == shown["BOUNDLOOP_LDAP_BIND_PASSWORD"]["value"] == "****"
    assert shown["BOUNDLOOP_OIDC_ISSUER"]["value"] is None  # unset stays unset, not masked


def test_every_setting_named_like_a_secret_is_masked():
    pattern = re.compile(r"KEY|SECRET|PASSWORD|TOKEN")
    for field in Settings.model_fields:
        if pattern.search(env_name(field)) and field not in NOT_SECRETS:
            assert is_secret(field), field
    assert not any(is_secret(field) for field in NOT_SECRETS)


@pytest.mark.parametrize("url, shown", [
    ("redis://:hunter2@cache:6379/0", "redis://:****@cache:6379/0"),
    ("postgresql://u@h/db?password=p&sslmode=require", "postgresql://u@h/db?password=****&sslmode=require"),
    ("postgresql://u@h/db", "postgresql://u@h/db"),
    ("/srv/index", "/srv/index"),
])
def test_url_masking(url, shown):
    assert masked_url(url) == shown


def test_the_text_form_is_one_line_per_setting_with_its_source(clean, capsys):
    clean.setenv("BOUNDLOOP_MAX_HOPS", "4")
    assert main(["config", "serve", "--workers", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"BOUNDLOOP_MAX_HOPS +4 +environment", next(x for x in lines if "MAX_HOPS" in x))
    assert re.fullmatch(r"BOUNDLOOP_MAX_TOKENS +45000 +default", next(x for x in lines if "MAX_TOKENS" in x))
    assert re.fullmatch(r" +--workers +2 +flag", next(x for x in lines if "--workers" in x))


def test_a_bad_command_line_exits_2(clean, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["config", "serve", "--port", "many"])
    assert stopped.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


def test_readme_lists_every_setting_and_no_other():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`(BOUNDLOOP_[A-Z0-9_]+)", section))
    declared = {env_name(field) for field in Settings.model_fields if env_name(field).startswith("BOUNDLOOP_")}
    internal = {"BOUNDLOOP_SERVE_MASTER"}  # set by serve for its workers, not by a deployment
    assert listed == declared - internal
    assert "| `boundloop config" in readme
