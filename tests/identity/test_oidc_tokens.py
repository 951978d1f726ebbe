"""Bearer tokens from a real OpenID provider (oidc-provider on Node): accepted when valid, 401 with a reason if not."""

from __future__ import annotations

import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from fastapi.testclient import TestClient

from boundloop.service.app import create_app
from boundloop.service.errors import AuthenticationFailed
from boundloop.service.oidc_keys import ProviderKeys
from boundloop.service.oidc_tokens import OidcSettings, OidcVerifier
from tests.identity.provider import Provider
from tests.service.conftest import make_state
from tests.service.keys import auth


def verifier(provider: Provider, audience: str = "boundloop") -> OidcVerifier:
    keys = ProviderKeys(provider.issuer)
    keys.refresh()
    return OidcVerifier(OidcSettings(issuer=provider.issuer, audience=audience), keys)


@pytest.mark.parametrize(("client_id", "alg"), [("boundloop", "RS256"), ("boundloop-es", "ES256"),
                                                ("boundloop-ps", "PS256")])
def test_a_provider_token_names_the_user_and_groups(provider, client_id, alg):
    token = provider.sign_in("dave", client_id=client_id)
    assert jwt.get_unverified_header(token)["alg"] == alg
    identity = verifier(provider, audience=client_id).verify(token)
    assert identity.user == "dave"
    assert identity.groups == {"all-staff", "hr"}


def test_a_token_for_another_client_is_the_wrong_audience(provider):
    token = provider.sign_in("dave", client_id="boundloop-es")
    with pytest.raises(AuthenticationFailed, match="wrong audience"):
        verifier(provider).verify(token)


def _forge(claims: dict, key, alg: str, kid: str | None = "rsa-1") -> str:
    return jwt.encode(claims, key, algorithm=alg, headers={"kid": kid} if kid else None)


def _claims(provider: Provider, **changes) -> dict:
    now = int(time.time())
    claims = {"iss": provider.issuer, "aud": "boundloop", "sub": "dave", "preferred_username": "dave",
              "groups": ["admin"], "iat": now, "exp": now + 600}
    claims.update(changes)
    return {name: value for name, value in claims.items() if value is not None}


def _rsa():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.mark.parametrize("case", ["forged", "unknown-key", "expired", "not-yet", "wrong-issuer", "none", "hs256",
                                  "hs256-public-key", "garbage"])
def test_bad_tokens_are_refused(provider, case):
    """Each token below is refused with a reason: none of them may sign anyone in."""
    check = verifier(provider)
    public_pem = b"".join(check.keys.key_for("rsa-1").key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).splitlines(keepends=True))
    now = int(time.time())
    token = {
        "forged": lambda: _forge(_claims(provider), _rsa(), "RS256"),
        "unknown-key": lambda: _forge(_claims(provider), ec.generate_private_key(ec.SECP256R1()), "ES256",
                                      kid="not-published"),
        "expired": lambda: _forge(_claims(provider, exp=now - 120, iat=now - 900), _rsa(), "RS256"),
        "not-yet": lambda: _forge(_claims(provider, nbf=now + 600), _rsa(), "RS256"),
        "wrong-issuer": lambda: _forge(_claims(provider, iss="https://evil.example"), _rsa(), "RS256"),
        "none": lambda: jwt.encode(_claims(provider), None, algorithm="none"),
        "hs256": lambda: _forge(_claims(provider), "a-shared-secret-that-is-long-enough-0123", "HS256"),
        "hs256-public-key": lambda: _hmac_with(public_pem, _claims(provider)),
        "garbage": lambda: "abc.def.ghi",
    }[case]()
    with pytest.raises(AuthenticationFailed):
        check.verify(token)


def _hmac_with(secret: bytes, claims: dict) -> str:
    """HS256 keyed with the provider's public key: the classic algorithm-confusion forgery (PyJWT refuses to make
    one with a PEM key, so the signature is computed by hand)."""
    import base64
    import hashlib
    import hmac
    import json

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    signing_input = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "rsa-1"}).encode()) + "." + \
        b64(json.dumps(claims).encode())
    return signing_input + "." + b64(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())


@pytest.fixture
def oidc_client(index, encoder, tmp_path, provider):
    state = make_state(index, encoder, tmp_path, oidc=OidcSettings(issuer=provider.issuer, audience="boundloop"))
    with TestClient(create_app(state), raise_server_exceptions=False) as test_client:
        yield test_client, state


def test_the_service_runs_a_question_for_a_provider_user_with_the_token_groups(oidc_client, provider):
    client, state = oidc_client
    token = provider.sign_in("dave")
    headers = {"Authorization": f"Bearer {token}"}
    me = client.get("/me", headers=headers)
    assert me.status_code == 200, me.text
    assert me.json()["user"] == "dave"
    assert state.resolver.resolve("dave").groups == {"all-staff", "hr"}
    answer = client.post("/ask", json={"question": "What is the parental leave policy?"}, headers=headers)
    assert answer.status_code == 200, answer.text


def test_directory_api_keys_keep_working_and_keep_the_file_groups(oidc_client, provider):
    client, state = oidc_client
    assert client.get("/me", headers=auth("alice")).status_code == 200
    # a provider user with a file account's name is refused: the file's groups, runs and conversations are not theirs
    taken = client.get("/me", headers={"Authorization": f"Bearer {provider.sign_in('alice')}"})
    assert taken.status_code == 401 and "rename" in taken.json()["detail"]
    assert client.post("/ask", json={"question": "What are the salary bands for level L5 engineers?"},
                       headers={"Authorization": f"Bearer {provider.sign_in('alice')}"}).status_code == 401
    assert state.resolver.resolve("alice").groups == {"all-staff", "hr"}  # the file, not the provider's leadership


def test_a_forged_token_is_a_401_and_runs_nothing(oidc_client, provider):
    client, state = oidc_client
    token = _forge(_claims(provider), _rsa(), "RS256")
    response = client.post("/ask", json={"question": "What is the parental leave policy?"},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert "bad signature" in response.json()["detail"]


def test_an_unreachable_issuer_starts_degraded_and_refuses_tokens(index, encoder, tmp_path, provider):
    from tests.service.servers import free_port

    issuer = f"http://127.0.0.1:{free_port()}"
    state = make_state(index, encoder, tmp_path, oidc=OidcSettings(issuer=issuer, audience="boundloop"))
    with TestClient(create_app(state), raise_server_exceptions=False) as client:
        health = client.get("/healthz")
        assert health.status_code == 503
        assert health.json()["status"] == "degraded"
        assert any("OpenID provider" in reason for reason in health.json()["reasons"])
        response = client.get("/me", headers={"Authorization": f"Bearer {provider.sign_in('dave')}"})
        assert response.status_code == 401
        assert "keys are unavailable" in response.json()["detail"]


ISSUER = "https://login.example.test"


@pytest.fixture(scope="module")
def own_key():
    return _rsa()


@pytest.fixture
def own_verifier(own_key) -> OidcVerifier:
    """A verifier over an issuer whose key the test holds, so each claim check is reached past the signature."""
    import httpx

    public = jwt.PyJWK.from_dict(json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(own_key.public_key())))
    jwks = {"keys": [{**public._jwk_data, "kid": "own", "use": "sig"}]}

    def serve(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("openid-configuration"):
            return httpx.Response(200, json={"issuer": ISSUER, "jwks_uri": f"{ISSUER}/jwks"})
        return httpx.Response(200, json=jwks)

    keys = ProviderKeys(ISSUER, client=httpx.Client(transport=httpx.MockTransport(serve)))
    keys.refresh()
    return OidcVerifier(OidcSettings(issuer=ISSUER, audience="boundloop"), keys)


@pytest.mark.parametrize(("changes", "reason"), [
    ({}, None),
    ({"exp": -120}, "expired"),
    ({"exp": -30}, None),  # inside the 60 s skew
    ({"nbf": 600}, "not valid yet"),
    ({"iss": "https://other.example.test"}, "wrong issuer"),
    ({"aud": "another-api"}, "wrong audience"),
    ({"exp": None}, "invalid token"),
    ({"preferred_username": None}, "no 'preferred_username' claim"),
    ({"groups": "admin"}, "not a list"),
    ({"preferred_username": "dave "}, "spaces around it"),  # another name to the provider: never dave here
    ({"preferred_username": "\u200bdave"}, "invisible characters"),
])
def test_each_claim_is_checked(own_verifier, own_key, changes, reason):
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": "boundloop", "preferred_username": "dave", "groups": ["hr"], "iat": now - 900,
              "exp": now + 600}
    for name, value in changes.items():
        if value is None:
            claims.pop(name)
        elif name in ("exp", "nbf"):
            claims[name] = now + value
        else:
            claims[name] = value
    token = jwt.encode(claims, own_key, algorithm="RS256", headers={"kid": "own"})
    if reason is None:
        assert own_verifier.verify(token).user == "dave"
        return
    with pytest.raises(AuthenticationFailed, match=reason):
        own_verifier.verify(token)


def test_an_unknown_key_refetches_at_most_once_a_minute_and_a_rotated_key_is_found(own_key):
    import httpx

    rotated = _rsa()
    published = [own_key]
    fetches = []
    now = [1000.0]

    def serve(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("openid-configuration"):
            return httpx.Response(200, json={"issuer": ISSUER, "jwks_uri": f"{ISSUER}/jwks"})
        fetches.append(now[0])
        keys = [{**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key())), "kid": f"k{i}", "use": "sig"}
                for i, key in enumerate(published)]
        return httpx.Response(200, json={"keys": keys})

    keys = ProviderKeys(ISSUER, client=httpx.Client(transport=httpx.MockTransport(serve)), clock=lambda: now[0])
    keys.refresh()
    check = OidcVerifier(OidcSettings(issuer=ISSUER, audience="boundloop"), keys)
    claims = {"iss": ISSUER, "aud": "boundloop", "preferred_username": "dave", "exp": int(time.time()) + 600}
    token = jwt.encode(claims, rotated, algorithm="RS256", headers={"kid": "k1"})
    published.append(rotated)  # the provider rotates; this server has not seen it yet
    for _ in range(5):
        with pytest.raises(AuthenticationFailed, match="does not publish"):
            check.verify(token)
    assert len(fetches) == 1  # only the start: a flood of unknown kids fetches nothing within the minute
    now[0] += 61
    assert check.verify(token).user == "dave"  # one refetch finds the rotated key
    assert len(fetches) == 2
    with pytest.raises(AuthenticationFailed):
        check.verify(jwt.encode(claims, _rsa(), algorithm="RS256", headers={"kid": "k9"}))
    assert len(fetches) == 2


def test_with_a_provider_the_directory_file_is_optional(index, encoder, tmp_path, provider, monkeypatch):
    from boundloop.policies.errors import BoundloopError
    from boundloop.reasoners.offline import OfflineReasoner
    from boundloop.runstore.sqlite import SqliteRunStore
    from boundloop.service.settings import ServiceSettings
    from boundloop.service.state import ServiceState, open_directory

    monkeypatch.delenv("BOUNDLOOP_INDEX", raising=False)
    monkeypatch.delenv("BOUNDLOOP_DIRECTORY", raising=False)
    oidc = OidcSettings(issuer=provider.issuer, audience="boundloop")
    with pytest.raises(BoundloopError, match="set BOUNDLOOP_INDEX"):
        open_directory(ServiceSettings(oidc=oidc))
    with pytest.raises(BoundloopError):  # without a provider, a directory file is still required
        open_directory(ServiceSettings(index=str(index.folder)))
    settings = ServiceSettings(index=str(index.folder), oidc=oidc)
    _, directory = open_directory(settings)
    assert directory.current().users == {}
    state = ServiceState(settings=settings, directory=directory, backend=index, encoder=encoder,
                         store=SqliteRunStore(tmp_path / "runs.db"), reasoner=OfflineReasoner())
    with TestClient(create_app(state), raise_server_exceptions=False) as client:
        token = provider.sign_in("dave")
        assert client.get("/me", headers={"Authorization": f"Bearer {token}"}).json()["user"] == "dave"
        assert client.get("/me", headers=auth("alice")).status_code == 401  # no file: no API keys


def test_the_langgraph_server_auth_accepts_provider_tokens_and_refuses_forged_ones(index, encoder, tmp_path, provider):
    from boundloop.service.langgraph_auth import _identify

    state = make_state(index, encoder, tmp_path, oidc=OidcSettings(issuer=provider.issuer, audience="boundloop"))
    assert _identify(state, [f"Bearer {provider.sign_in('dave')}"], []) == ("dave", [])
    with pytest.raises(AuthenticationFailed, match="bad signature"):
        _identify(state, [f"Bearer {_forge(_claims(provider), _rsa(), 'RS256')}"], [])
