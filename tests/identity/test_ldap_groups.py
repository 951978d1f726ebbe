"""Groups from a real LDAP directory (slapd): nested groups, escaping, the cache, revocation and an outage."""

from __future__ import annotations

import pytest

pytest.importorskip("ldap3", reason="LDAP needs the identity extra: pip install 'boundloop[identity]'")

from boundloop.policies.errors import BoundloopError  # noqa: E402
from boundloop.service.errors import DirectoryUnavailable  # noqa: E402
from boundloop.service.ldap_groups import LdapGroups  # noqa: E402
from boundloop.service.ldap_settings import LdapSettings  # noqa: E402
from tests.identity.directory import ROOT_DN, ROOT_PW, SUFFIX, start_slapd  # noqa: E402


@pytest.fixture(scope="module")
def slapd(tmp_path_factory):
    yield from start_slapd(tmp_path_factory.mktemp("slapd"))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def settings(url: str, **changes) -> LdapSettings:
    values = dict(url=url, bind_dn=ROOT_DN, bind_password=ROOT_PW, user_base=f"ou=people,{SUFFIX}",
                  group_base=f"ou=groups,{SUFFIX}", cache_s=60, grace_s=300)
    values.update(changes)
    return LdapSettings(**values)


def test_groups_include_nested_ones(slapd):
    groups = LdapGroups(settings(slapd.url))
    assert groups.groups_for("dave") == {"hr", "all-staff"}  # all-staff through hr
    assert groups.groups_for("erin") == {"all-staff"}
    assert groups.groups_for("nobody") is None


@pytest.mark.parametrize("name", ["*", "*)(uid=*", "dave)(|(uid=*", "\\2a"])
def test_filter_characters_in_a_name_find_nobody(slapd, name):
    assert LdapGroups(settings(slapd.url)).groups_for(name) is None


@pytest.mark.parametrize("name", ["dave ", " dave", "\uff44\uff41\uff56\uff45", "dave\u00a0", "d\u0430ve"])
def test_a_name_the_directory_only_matches_by_normalising_finds_nobody(slapd, name):
    """slapd matches `uid` ignoring surrounding spaces and folding full-width and no-break forms: without a check
    of the value it holds, a provider user named '\uff44\uff41\uff56\uff45' (full-width) would get dave's groups."""
    assert LdapGroups(settings(slapd.url)).groups_for(name) is None


def test_letter_case_alone_names_the_same_person(slapd):
    """Providers and directories treat user names case-insensitively, so case is not a second identity."""
    assert LdapGroups(settings(slapd.url)).groups_for("Dave") == {"hr", "all-staff"}


def test_a_removed_group_is_gone_after_the_cache_time(slapd):
    clock = Clock()
    groups = LdapGroups(settings(slapd.url, cache_s=60), clock=clock)
    assert "hr" in groups.groups_for("dave")
    slapd.modify(f"dn: cn=hr,ou=groups,{SUFFIX}\nchangetype: modify\ndelete: member\n"
                 f"member: uid=dave,ou=people,{SUFFIX}\n")
    try:
        clock.now += 59
        assert "hr" in groups.groups_for("dave")  # cached
        clock.now += 2
        assert groups.groups_for("dave") == frozenset()  # neither hr nor all-staff (it came through hr)
    finally:
        slapd.modify(f"dn: cn=hr,ou=groups,{SUFFIX}\nchangetype: modify\nadd: member\n"
                     f"member: uid=dave,ou=people,{SUFFIX}\n")


def test_an_unreachable_directory_serves_recent_groups_then_refuses(slapd):
    from tests.service.servers import free_port

    clock = Clock()
    groups = LdapGroups(settings(slapd.url, cache_s=60, grace_s=120), clock=clock)
    assert groups.groups_for("dave") == {"hr", "all-staff"}
    groups.settings = settings(f"ldap://127.0.0.1:{free_port()}", cache_s=60, grace_s=120)
    groups._drop_connection()
    clock.now += 100  # past the cache time, inside the grace period
    assert groups.groups_for("dave") == {"hr", "all-staff"}
    assert groups.problem
    clock.now += 100
    with pytest.raises(DirectoryUnavailable, match="cannot be reached"):
        groups.groups_for("dave")
    with pytest.raises(DirectoryUnavailable):
        groups.groups_for("erin")  # never read: no groups to fall back on


@pytest.mark.parametrize(("name", "value", "message"), [
    ("BOUNDLOOP_LDAP_URL", "http://ldap.example.com", "must be ldap://"),
    ("BOUNDLOOP_LDAP_USER_BASE", "people", "not a distinguished name"),
    ("BOUNDLOOP_LDAP_USER_ATTRIBUTE", "uid)(x", "attribute name"),
    ("BOUNDLOOP_LDAP_BIND_PASSWORD", "", "set BOUNDLOOP_LDAP_BIND_PASSWORD"),
])
def test_a_malformed_setting_is_one_line(monkeypatch, name, value, message):
    good = {"BOUNDLOOP_LDAP_URL": "ldaps://ad.example.com:636", "BOUNDLOOP_LDAP_USER_BASE": "ou=people,dc=x",
            "BOUNDLOOP_LDAP_GROUP_BASE": "ou=groups,dc=x", "BOUNDLOOP_LDAP_BIND_DN": "cn=svc,dc=x",
            "BOUNDLOOP_LDAP_BIND_PASSWORD": "pw", "BOUNDLOOP_LDAP_USER_ATTRIBUTE": "sAMAccountName"}
    for key, text in {**good, name: value}.items():
        monkeypatch.setenv(key, text)
    if value == "":
        monkeypatch.delenv(name)
    with pytest.raises(BoundloopError, match=message) as caught:
        LdapSettings.from_env()
    assert "\n" not in str(caught.value)


def test_the_service_takes_groups_from_ldap_and_answers_503_when_it_is_gone(index, encoder, tmp_path, slapd,
                                                                            provider):
    """A provider token names erin with no groups; LDAP says all-staff, and LDAP wins. LDAP gone: 503, not 401."""
    from fastapi.testclient import TestClient

    from boundloop.service.app import create_app
    from boundloop.service.oidc_tokens import OidcSettings
    from tests.service.conftest import make_state
    from tests.service.servers import free_port

    state = make_state(index, encoder, tmp_path, oidc=OidcSettings(issuer=provider.issuer, audience="boundloop"),
                       ldap=settings(slapd.url, grace_s=0))
    headers = {"Authorization": f"Bearer {provider.sign_in('erin')}"}
    with TestClient(create_app(state), raise_server_exceptions=False) as client:
        assert client.get("/me", headers=headers).status_code == 200
        assert state.resolver.resolve("erin").groups == {"all-staff"}
        ldap = state.identity_sources.ldap
        assert ldap is not None
        ldap.settings = settings(f"ldap://127.0.0.1:{free_port()}", cache_s=0, grace_s=0)
        ldap._drop_connection()
        response = client.post("/ask", json={"question": "What is the parental leave policy?"}, headers=headers)
        assert response.status_code == 503
        assert "cannot be reached" in response.json()["detail"]
