"""Deployment settings from the environment: JWT secret length and lifetime, rate limits, demo mode."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from boundloop.policies.errors import BoundloopError
from boundloop.service.rate_limit import Rate
from boundloop.service.settings import ServiceSettings


@pytest.fixture
def env(monkeypatch):
    for name in ("BOUNDLOOP_JWT_SECRET", "BOUNDLOOP_JWT_MAX_TTL", "BOUNDLOOP_RATE_PER_KEY",
                 "BOUNDLOOP_RATE_PER_ADDRESS", "BOUNDLOOP_DEMO", "BOUNDLOOP_CHECKPOINT_URL", "BOUNDLOOP_MAX_BODY_BYTES",
                 "BOUNDLOOP_MAX_INGEST_BYTES", "BOUNDLOOP_TRUSTED_PROXIES"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("secret", ["short", "x" * 31, "é" * 15])  # 15 two-byte characters are 30 bytes
def test_jwt_secrets_shorter_than_32_bytes_are_refused(env, secret):
    env.setenv("BOUNDLOOP_JWT_SECRET", secret)
    with pytest.raises(BoundloopError, match="at least 32 bytes"):
        ServiceSettings.from_env()
    with pytest.raises(ValidationError):
        ServiceSettings(jwt_secret=secret)


def test_a_32_byte_secret_is_enough(env):
    env.setenv("BOUNDLOOP_JWT_SECRET", "x" * 32)
    assert ServiceSettings.from_env().jwt_secret == "x" * 32


@pytest.mark.parametrize("text, seconds", [(None, 86400), ("3600", 3600), ("90m", 5400), ("24h", 86400),
                                           ("2d", 172800), ("30s", 30)])
def test_jwt_max_ttl(env, text, seconds):
    if text is not None:
        env.setenv("BOUNDLOOP_JWT_MAX_TTL", text)
    assert ServiceSettings.from_env().jwt_max_ttl_s == seconds


@pytest.mark.parametrize(("variable", "text", "message"), [
    *[("BOUNDLOOP_JWT_MAX_TTL", text, "must be a duration") for text in ["0", "-5", "a day", "24 hours", "1.5h"]],
    *[("BOUNDLOOP_RATE_PER_KEY", text, "must be a rate such as 120/minute") for text in
      ["fast", "0/s", "10/fortnight", "10", "/s", "5/0s"]],
    *[("BOUNDLOOP_MAX_BODY_BYTES", text, "must be a whole number, at least 1") for text in ["0", "-1", "64k"]],
    ("BOUNDLOOP_MAX_INGEST_BYTES", "0", "must be a whole number, at least 1"),
    ("BOUNDLOOP_DEMO", "maybe", "must be on (1, true, yes, on) or off"),
    ("BOUNDLOOP_TRUSTED_PROXIES", "10.0.0.0/33", "must be comma-separated IP addresses or CIDR ranges"),
])
def test_a_bad_setting_is_a_clear_error_naming_its_variable(env, variable, text, message):
    env.setenv(variable, text)
    with pytest.raises(BoundloopError) as refused:
        ServiceSettings.from_env()
    assert str(refused.value).startswith(f"{variable}={text!r} {message}")


def test_rate_limits_are_on_by_default_from_the_environment_and_off_when_built_directly(env):
    settings = ServiceSettings.from_env()
    assert settings.rate_per_key == Rate(requests=120, per_s=60)
    assert settings.rate_per_address == Rate(requests=600, per_s=60)
    assert ServiceSettings().rate_per_key is None and ServiceSettings().rate_per_address is None
    env.setenv("BOUNDLOOP_RATE_PER_KEY", "off")
    env.setenv("BOUNDLOOP_RATE_PER_ADDRESS", "10/s")
    settings = ServiceSettings.from_env()
    assert settings.rate_per_key is None and settings.rate_per_address == Rate(requests=10, per_s=1)


@pytest.mark.parametrize("text, rate", [("120/minute", (120, 60)), ("10/s", (10, 1)), ("1000/hour", (1000, 3600)),
                                        ("30/10s", (30, 10)), ("5 / min", (5, 60)), ("7/minutes", (7, 60))])
def test_rates_parse(env, text, rate):
    env.setenv("BOUNDLOOP_RATE_PER_KEY", text)
    assert ServiceSettings.from_env().rate_per_key == Rate(requests=rate[0], per_s=rate[1])


def test_demo_mode_comes_from_boundloop_demo(env):
    assert ServiceSettings.from_env().demo is False
    env.setenv("BOUNDLOOP_DEMO", "1")
    assert ServiceSettings.from_env().demo is True
