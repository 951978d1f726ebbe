"""Forwarded client addresses are believed only from `BOUNDLOOP_TRUSTED_PROXIES`: a local client cannot rotate
`X-Forwarded-For` past the per-address rate limit."""

from __future__ import annotations

import ipaddress
import shutil

import httpx
import pytest
from fastapi.testclient import TestClient

from boundloop.service.app import create_app
from boundloop.service.forwarded import forwarded_client
from boundloop.service.rate_limit import Rate
from tests.service.conftest import make_state
from tests.service.keys import auth
from tests.service.servers import free_port, running, server_env

PROXIES = (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("::1/128"))


def _headers(**values: str) -> list[tuple[bytes, bytes]]:
    return [(name.replace("_", "-").encode(), value.encode()) for name, value in values.items()]


@pytest.mark.parametrize("peer, headers, client", [
    ("203.0.113.9", _headers(x_forwarded_for="198.51.100.1"), "203.0.113.9"),  # not a trusted peer: ignored
    ("203.0.113.9", _headers(x_real_ip="198.51.100.1"), "203.0.113.9"),
    ("10.1.2.3", _headers(x_forwarded_for="198.51.100.1"), "198.51.100.1"),
    ("10.1.2.3", _headers(x_forwarded_for="1.1.1.1, 198.51.100.1, 10.9.9.9"), "198.51.100.1"),  # right-most untrusted
    ("10.1.2.3", _headers(x_forwarded_for="198.51.100.1:4711"), "198.51.100.1"),
    ("10.1.2.3", _headers(x_forwarded_for="10.4.4.4, 10.5.5.5"), "10.4.4.4"),  # proxies all the way: the first
    ("10.1.2.3", _headers(x_forwarded_for="unknown"), "10.1.2.3"),  # not an address: the peer
    ("10.1.2.3", _headers(forwarded='for=192.0.2.60;proto=http, for="[2001:db8::17]:4711"'), "2001:db8::17"),
    ("10.1.2.3", _headers(x_real_ip="198.51.100.7"), "198.51.100.7"),
    ("10.1.2.3", _headers(x_forwarded_for="198.51.100.1", x_real_ip="198.51.100.7"), "198.51.100.1"),
    ("::1", _headers(x_forwarded_for="2001:db8::1"), "2001:db8::1"),
    ("10.1.2.3", [], "10.1.2.3"),
])
def test_the_client_address_rules(peer, headers, client):
    assert forwarded_client(peer, headers, PROXIES) == client
    assert forwarded_client(peer, headers, ()) == peer  # the default: no proxy is trusted


def _local_client(index, encoder, tmp_path, **settings) -> TestClient:
    state = make_state(index, encoder, tmp_path, rate_per_address=Rate(requests=3, per_s=60), **settings)
    return TestClient(create_app(state), client=("127.0.0.1", 40000), raise_server_exceptions=False)


def test_by_default_a_local_client_cannot_rotate_forwarded_addresses(index, encoder, tmp_path):
    with _local_client(index, encoder, tmp_path) as client:
        statuses = [client.get("/me", headers={**auth("bob"), "X-Forwarded-For": f"198.51.100.{n}",
                                               "X-Real-IP": f"198.51.100.{n}", "Forwarded": f"for=198.51.100.{n}"})
                    .status_code for n in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_a_trusted_proxy_names_the_client(index, encoder, tmp_path):
    with _local_client(index, encoder, tmp_path, trusted_proxies=(ipaddress.ip_network("127.0.0.1/32"),)) as client:
        rotated = [client.get("/me", headers={**auth("bob"), "X-Forwarded-For": f"198.51.100.{n}"}).status_code
                   for n in range(4)]
        same = [client.get("/me", headers={**auth("bob"), "X-Forwarded-For": "198.51.100.200"}).status_code
                for _ in range(4)]
    assert rotated == [200] * 4 and same == [200, 200, 200, 429]  # buckets per forwarded client


@pytest.mark.slow
def test_boundloop_serve_ignores_forwarded_headers_from_localhost(tmp_path, real_index_dir, keyed_directory):
    """uvicorn believed X-Forwarded-For from 127.0.0.1 by default; `serve` leaves that to the app's setting."""
    shutil.copytree(real_index_dir, tmp_path / "index")
    env = server_env(BOUNDLOOP_INDEX=str(tmp_path / "index"), BOUNDLOOP_DIRECTORY=str(keyed_directory),
                     BOUNDLOOP_RATE_PER_ADDRESS="3/minute")
    port = free_port()
    args = ["-m", "boundloop", "serve", "--port", str(port), "--log-level", "warning", "--access-log", "off"]
    with running(args, env, "/healthz", port, tmp_path / "server.log") as base:
        statuses = [httpx.get(base + "/me", headers={**auth("bob"), "X-Forwarded-For": f"198.51.100.{n}"}).status_code
                    for n in range(4)]
    assert statuses == [200, 200, 200, 429]
