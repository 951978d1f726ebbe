"""ASGI middleware: the client address is the TCP peer, unless the peer is a proxy the deployment trusts.

Forwarded headers are believed only from a peer in `BOUNDLOOP_TRUSTED_PROXIES` (none by default): from anyone else,
a client could write a new address in every request and pass the per-address rate limit. From a trusted proxy,
`X-Forwarded-For` is read, else `Forwarded` (RFC 7239 `for=`), else `X-Real-IP`; along a chain of proxies the client
is the right-most address that is not itself a trusted proxy (a client can prepend addresses, not append them). An
entry that is not an IP address (`unknown`, an obfuscated name) stops the walk, and the peer stays the client.
`X-Forwarded-Proto` from a trusted proxy sets the scheme, as uvicorn's own proxy handling did.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from boundloop.policies.setting_rules import Network

SCHEMES = {"http": ("http", "ws"), "https": ("https", "wss")}


def _trusted(address: str, trusted: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def _address(hop: str) -> str | None:
    """The IP address of one hop (`1.2.3.4`, `1.2.3.4:80`, `[::1]:80`, `"[::1]"`), normalised; None if none."""
    hop = hop.strip().strip('"')
    if hop.startswith("["):
        hop = hop[1:].partition("]")[0]
    elif hop.count(":") == 1:
        hop = hop.partition(":")[0]
    try:
        return str(ipaddress.ip_address(hop))
    except ValueError:
        return None


def _forwarded_for(values: list[str]) -> list[str]:
    """The `for=` values of RFC 7239 `Forwarded` headers, in order."""
    hops = []
    for element in ",".join(values).split(","):
        for pair in element.split(";"):
            key, _, value = pair.partition("=")
            if key.strip().lower() == "for":
                hops.append(value)
    return hops


def _header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in headers if key.lower() == name]


def forwarded_client(peer: str, headers: list[tuple[bytes, bytes]], trusted: tuple[Network, ...]) -> str:
    """The client's address: `peer`, or what a trusted `peer` forwarded (see the module's rules)."""
    if not _trusted(peer, trusted):
        return peer
    hops = [hop for value in _header(headers, b"x-forwarded-for") for hop in value.split(",")] \
        or _forwarded_for(_header(headers, b"forwarded")) or _header(headers, b"x-real-ip")[-1:]
    client = peer
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            return client
        client = address
        if not _trusted(address, trusted):
            return address
    return client


class TrustedProxyMiddleware:
    """Rewrites the scope's client (and scheme) from forwarded headers sent by a trusted proxy."""

    def __init__(self, app: ASGIApp, trusted: tuple[Network, ...]) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        peer = (scope.get("client") or ("",))[0]
        if scope["type"] in ("http", "websocket") and self.trusted and _trusted(peer, self.trusted):
            headers = list(scope.get("headers", []))
            scope["client"] = (forwarded_client(peer, headers, self.trusted), 0)  # in place, as uvicorn does
            proto = (_header(headers, b"x-forwarded-proto")[-1:] or [""])[0].strip().lower()
            if proto in SCHEMES:
                scope["scheme"] = SCHEMES[proto][scope["type"] == "websocket"]
        await self.app(scope, receive, send)
