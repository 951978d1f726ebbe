"""The test OpenID provider (oidc_provider/server.mjs on Node) and a scripted sign-in that returns its ID token."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlparse

import httpx
import pytest

from tests.service.servers import free_port

HERE = Path(__file__).parent / "oidc_provider"
CLIENT_SECRET = "test-secret-not-for-production-0123456789"


def stop(process: subprocess.Popen) -> None:
    """Terminate a server the tests started; kill it if it has not gone within 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def follow_login(http: httpx.Client, response: httpx.Response, user: str, redirect_prefix: str) -> str:
    """Sign `user` in on the provider's login form from its first answer; the redirect back to `redirect_prefix`."""
    for _ in range(10):
        location = response.headers.get("location")
        if location is None:
            form = re.search(r'action="([^"]+)"', response.text)
            assert form, response.text[:500]
            response = http.post(urljoin(str(response.url), form.group(1)),
                                 data={"prompt": "login", "login": user, "password": "any"})
            continue
        if location.startswith(redirect_prefix):
            return location
        response = http.get(urljoin(str(response.url), location))
    raise AssertionError("the provider never redirected back")


@dataclass
class Provider:
    issuer: str
    redirect_uri: str

    def sign_in(self, user: str, client_id: str = "boundloop", nonce: str = "n-0") -> str:
        """The ID token the provider issues to `client_id` after `user` signs in on its login form."""
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        with httpx.Client(follow_redirects=False, timeout=10) as http:
            url = httpx.URL(f"{self.issuer}/auth", params={
                "client_id": client_id, "response_type": "code", "scope": "openid profile",
                "redirect_uri": self.redirect_uri, "state": "s-0", "nonce": nonce,
                "code_challenge": challenge, "code_challenge_method": "S256"})
            location = follow_login(http, http.get(url), user, self.redirect_uri)
            code = parse_qs(urlparse(location).query)["code"][0]
            tokens = http.post(f"{self.issuer}/token", data={
                "grant_type": "authorization_code", "code": code, "redirect_uri": self.redirect_uri,
                "code_verifier": verifier}, auth=(client_id, CLIENT_SECRET))
            tokens.raise_for_status()
            return str(tokens.json()["id_token"])


def start_provider(users: dict[str, dict[str, list[str]]], tmp: Path, redirect_uris: list[str]
                   ) -> Iterator[Provider]:
    """Start server.mjs on a free port; skip when Node or the npm packages are absent."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs; see scripts/ci-services.sh)")
    if not (HERE / "node_modules" / "oidc-provider").is_dir():
        pytest.skip("oidc-provider is not installed: run npm ci in tests/identity/oidc_provider "
                    "(scripts/ci-services.sh)")
    users_file = tmp / "users.json"
    users_file.write_text(json.dumps(users))
    port = free_port()
    process = subprocess.Popen(["node", "server.mjs", str(port), str(users_file), ",".join(redirect_uris)], cwd=HERE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("ready "):
            raise RuntimeError(f"the OpenID provider did not start: {line!r}")
        yield Provider(issuer=line.split()[1], redirect_uri=redirect_uris[0])
    finally:
        stop(process)
