"""Identity fixtures: the real OpenID provider on Node, and the service trusting it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.identity.provider import Provider, start_provider
from tests.service.servers import free_port

PROVIDER_USERS = {
    "dave": {"groups": ["all-staff", "hr"]},  # in the provider only, not in the directory file
    "erin": {"groups": []},
    "alice": {"groups": ["leadership"]},  # the directory file's alice keeps the file's groups
}
REDIRECT_URI = "http://localhost/auth/callback"  # the service under TestClient(base_url="http://localhost")
SERVICE_PORT = free_port()  # the service a browser test starts; the provider must know its callback beforehand
BROWSER_REDIRECT_URI = f"http://127.0.0.1:{SERVICE_PORT}/auth/callback"


@pytest.fixture(scope="session")
def provider(tmp_path_factory) -> Iterator[Provider]:
    yield from start_provider(PROVIDER_USERS, tmp_path_factory.mktemp("oidc"), [REDIRECT_URI, BROWSER_REDIRECT_URI])
