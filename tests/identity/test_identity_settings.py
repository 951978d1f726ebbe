"""`boundloop serve` with a malformed identity setting: one line and exit code 2, before any worker starts."""

from __future__ import annotations

import pytest

from tests.service.test_serve_command import serve

LDAP = {"BOUNDLOOP_LDAP_URL": "ldap://127.0.0.1:1", "BOUNDLOOP_LDAP_USER_BASE": "ou=people,dc=x",
        "BOUNDLOOP_LDAP_GROUP_BASE": "ou=groups,dc=x"}


@pytest.mark.parametrize(("env", "message"), [
    ({"BOUNDLOOP_OIDC_ISSUER": "login.example.com"}, "BOUNDLOOP_OIDC_ISSUER='login.example.com' must be an https"),
    ({"BOUNDLOOP_OIDC_ISSUER": "https://login.example.com"}, "set BOUNDLOOP_OIDC_AUDIENCE too"),
    ({**LDAP, "BOUNDLOOP_LDAP_URL": "ldap.example.com"}, "BOUNDLOOP_LDAP_URL='ldap.example.com' must be ldap://"),
    ({**LDAP, "BOUNDLOOP_LDAP_GROUP_BASE": ""}, "set BOUNDLOOP_LDAP_GROUP_BASE too"),
    ({**LDAP, "BOUNDLOOP_LDAP_CACHE_SECONDS": "-5"}, "BOUNDLOOP_LDAP_CACHE_SECONDS='-5' must be a number"),
])
def test_a_malformed_identity_setting_is_one_line_and_exit_2(env, message):
    done = serve("--demo", **env)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
