"""Rate limits: token buckets per credential and per client address, 429 with Retry-After, failed logins counted."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from boundloop.service.app import create_app
from boundloop.service.rate_limit import FAILED_AUTH_COST, Rate, TokenBuckets
from tests.service.conftest import make_state
from tests.service.keys import auth

QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}


def test_a_bucket_allows_its_burst_then_refills_at_its_rate():
    buckets = TokenBuckets(Rate(requests=3, per_s=60))  # one token every 20 s
    assert [buckets.take("k", 0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("k", 0.0) == pytest.approx(20.0)
    assert buckets.take("k", 10.0) == pytest.approx(10.0)  # half a token back
    assert buckets.take("k", 20.0) == 0.0
    assert buckets.take("other", 20.0) == 0.0  # buckets are per key


def test_a_charge_can_push_a_bucket_below_zero_but_not_forever():
    buckets = TokenBuckets(Rate(requests=10, per_s=10))
    buckets.charge("k", 1000.0, 0.0)
    assert buckets.take("k", 0.0) == pytest.approx(11.0)  # floor at -10: 11 tokens to earn back at 1/s
    assert buckets.take("k", 11.0) == 0.0


def test_least_recently_used_buckets_are_forgotten_beyond_the_cap():
    buckets = TokenBuckets(Rate(requests=1, per_s=60), max_tracked=2)
    buckets.take("a", 0.0)
    buckets.take("b", 0.0)
    buckets.take("c", 0.0)  # "a" is dropped; a forgotten bucket starts full
    assert buckets.take("a", 0.0) == 0.0 and buckets.take("c", 0.0) > 0


def _client(index, encoder, tmp_path, **rates):
    return TestClient(create_app(make_state(index, encoder, tmp_path, **rates)), raise_server_exceptions=False)


def test_a_key_over_its_rate_gets_429_with_retry_after(index, encoder, tmp_path):
    with _client(index, encoder, tmp_path, rate_per_key=Rate(requests=3, per_s=60)) as client:
        assert [client.post("/ask", json=QUESTION, headers=auth("bob")).status_code for _ in range(3)] == [200] * 3
        refused = client.post("/ask", json=QUESTION, headers=auth("bob"))
        assert refused.status_code == 429 and 1 <= int(refused.headers["retry-after"]) <= 20
        assert refused.json() == {"detail": f"too many requests; retry after {refused.headers['retry-after']} s"}
        assert client.get("/runs/" + "0" * 32, headers=auth("bob")).status_code == 429  # every route counts
        assert client.post("/ask", json=QUESTION, headers=auth("alice")).status_code == 200  # another key
        assert client.get("/healthz").status_code == 200 and client.get("/metrics").status_code == 200


def test_an_address_over_its_rate_gets_429_whatever_keys_it_sends(index, encoder, tmp_path):
    with _client(index, encoder, tmp_path, rate_per_address=Rate(requests=4, per_s=60)) as client:
        statuses = [client.post("/ask", json=QUESTION, headers=auth(user)).status_code
                    for user in ("alice", "bob", "carol", "grace", "alice")]
        assert statuses == [200, 200, 200, 200, 429]


def test_failed_authentications_are_counted_heavily(index, encoder, tmp_path):
    rates = {"rate_per_key": Rate(requests=30, per_s=60), "rate_per_address": Rate(requests=15, per_s=60)}
    with _client(index, encoder, tmp_path, **rates) as client:
        guesses = [client.post("/ask", json=QUESTION, headers={"X-API-Key": f"guess-{n}"}).status_code
                   for n in range(4)]
        assert guesses == [401, 401, 429, 429]  # 15 tokens, 10 a failure: the third guess is refused unread
        assert client.post("/ask", json=QUESTION, headers=auth("bob")).status_code == 429  # the address is spent
    with _client(index, encoder, tmp_path, rate_per_key=Rate(requests=30, per_s=60)) as client:
        same = [client.post("/ask", json=QUESTION, headers={"X-API-Key": "wrong"}).status_code for _ in range(4)]
        assert same == [401, 401, 401, 429] and FAILED_AUTH_COST == 10  # one wrong key, retried


def test_rate_limits_are_off_unless_configured(client):
    assert {client.post("/ask", json=QUESTION, headers=auth("bob")).status_code for _ in range(12)} == {200}


def test_the_page_and_its_assets_cost_nothing_but_unauthenticated_api_calls_do(index, encoder, tmp_path):
    with _client(index, encoder, tmp_path, rate_per_address=Rate(requests=12, per_s=60)) as client:
        assert {client.get("/").status_code for _ in range(30)} == {200}
        assert client.get("/runs/" + "0" * 32).status_code == 401  # 10 tokens
        assert client.get("/runs/" + "0" * 32).status_code == 401  # 2 left: still let through, then charged
        assert client.get("/runs/" + "0" * 32).status_code == 429
        assert client.get("/").status_code == 429  # a spent address is refused everything
