"""An OpenID provider's signing keys: found through its discovery document, fetched from its JWKS, kept in memory.

The keys are fetched once and kept. A token signed with a key id the cache does not hold triggers one refetch (the
provider rotated its keys), at most once a minute, so a flood of tokens with made-up key ids cannot turn this
server into a load generator against the provider. A provider that cannot be reached leaves the cache empty and the
service up: `problem` says why (for `/healthz`), and every token is refused until the keys arrive.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import jwt

from boundloop.service.errors import AuthenticationFailed

log = logging.getLogger(__name__)
REFETCH_INTERVAL_S = 60.0  # the fewest seconds between two fetches of the provider's documents
FETCH_TIMEOUT_S = 5.0
DISCOVERY_PATH = "/.well-known/openid-configuration"


class ProviderUnreachable(Exception):
    """The discovery document or the JWKS could not be fetched or read; the message says which and why."""


def discovery_url(issuer: str) -> str:
    """Where an issuer publishes its configuration (OpenID Connect Discovery 1.0, section 4)."""
    return issuer.rstrip("/") + DISCOVERY_PATH


def _get_json(client: httpx.Client, url: str, what: str) -> dict[str, Any]:
    try:
        response = client.get(url)
        response.raise_for_status()
        body = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        raise ProviderUnreachable(f"cannot fetch the provider's {what} from {url}: {exc}") from None
    if not isinstance(body, dict):
        raise ProviderUnreachable(f"the provider's {what} at {url} is not a JSON object")
    return body


class ProviderKeys:
    """The issuer's discovery document and signing keys, cached; `key_for(kid)` is the one lookup per token."""

    def __init__(self, issuer: str, client: httpx.Client | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.issuer = issuer
        self._client = client or httpx.Client(timeout=FETCH_TIMEOUT_S, follow_redirects=False)
        self._clock = clock
        self._lock = threading.Lock()
        self._keys: dict[str, jwt.PyJWK] = {}
        self._metadata: dict[str, Any] = {}
        self._fetched_at: float | None = None
        self.problem: str | None = "the OpenID provider's keys have not been fetched yet"

    @property
    def metadata(self) -> dict[str, Any]:
        """The discovery document (endpoints for the sign-in flow); empty until it has been fetched."""
        return self._metadata

    def refresh(self) -> None:
        """Fetch the discovery document and the JWKS now; on failure keep what is held and record the problem."""
        with self._lock:
            self._refresh_locked()

    def retry_if_due(self) -> None:
        """After a failed fetch, try again if the last attempt is old enough (`/healthz` calls this)."""
        if self.problem and self._may_refetch():
            self.refresh()

    def key_for(self, kid: str | None) -> jwt.PyJWK:
        """The signing key with this id (the only key, when the token names none and the provider has one)."""
        key = self._lookup(kid)
        if key is not None:
            return key
        with self._lock:  # one refetch for everyone waiting, and only if the last one is old enough
            key = self._lookup(kid)
            if key is None and self._may_refetch():
                self._refresh_locked()
                key = self._lookup(kid)
        if key is not None:
            return key
        if self.problem:
            raise AuthenticationFailed("cannot verify tokens now: the identity provider's keys are unavailable")
        raise AuthenticationFailed("invalid token: signed with a key the identity provider does not publish")

    def _lookup(self, kid: str | None) -> jwt.PyJWK | None:
        keys = self._keys
        if kid is None:
            return next(iter(keys.values())) if len(keys) == 1 else None
        return keys.get(kid)

    def _may_refetch(self) -> bool:
        return self._fetched_at is None or self._clock() - self._fetched_at >= REFETCH_INTERVAL_S

    def _refresh_locked(self) -> None:
        self._fetched_at = self._clock()
        try:
            metadata = _get_json(self._client, discovery_url(self.issuer), "discovery document")
            if metadata.get("issuer") != self.issuer:
                raise ProviderUnreachable(f"the discovery document names issuer {metadata.get('issuer')!r}, "
                                          f"not {self.issuer!r}")
            jwks_uri = metadata.get("jwks_uri")
            if not isinstance(jwks_uri, str) or not jwks_uri.startswith(("https://", "http://")):
                raise ProviderUnreachable("the discovery document has no jwks_uri")
            keys = _signing_keys(_get_json(self._client, jwks_uri, "JWKS"))
        except ProviderUnreachable as exc:
            self.problem = str(exc)
            log.warning("OpenID provider: %s", exc)
            return
        self._metadata, self._keys, self.problem = metadata, keys, None


def _signing_keys(jwks: dict[str, Any]) -> dict[str, jwt.PyJWK]:
    """The JWKS's signature keys by id; encryption keys and keys PyJWT cannot read are left out."""
    found: dict[str, jwt.PyJWK] = {}
    listed = jwks.get("keys")
    if not isinstance(listed, list):
        raise ProviderUnreachable("the JWKS has no 'keys' list")
    for index, entry in enumerate(listed):
        if not isinstance(entry, dict) or entry.get("use", "sig") != "sig" or entry.get("kty") == "oct":
            continue
        try:
            key = jwt.PyJWK(entry)
        except jwt.PyJWTError:
            continue
        found[str(entry.get("kid", f"#{index}"))] = key
    return found
