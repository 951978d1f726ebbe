"""Rate limits: moving windows per credential and per client address, 429 with Retry-After, failed logins counted."""

from __future__ import annotations

import asyncio

from fastapi.testclient import TestClient

from boundloop.service.app import create_app
from boundloop.service.rate_limit import FAILED_AUTH_COST, Rate
from boundloop.service.rate_store import RateCounter
from tests.service.conftest import make_state
from tests.service.keys import auth

QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}


def test_a_worker_share_divides_the_rate_and_never_reaches_zero():
    assert Rate(requests=60, per_s=60).share(2) == Rate(requests=30, per_s=60)
    assert Rate(requests=3, per_s=60).share(4) == Rate(requests=1, per_s=60)
    assert Rate(requests=60, per_s=60).share(1) == Rate(requests=60, per_s=60)


def test_a_counter_allows_the_rate_then_says_when_one_more_fits():
    async def scenario():
        counter = RateCounter()
        rate = Rate(requests=3, per_s=60)
        granted = [await counter.take(rate, "k") for _ in range(3)]
        return granted, await counter.take(rate, "k"), await counter.take(rate, "other")

    granted, refused, other = asyncio.run(scenario())
    assert granted == [0.0] * 3 and 50 < refused <= 60 and other == 0.0  # the oldest request leaves in ~60 s


def test_a_charge_takes_what_is_left_and_workers_in_memory_count_their_share():
    async def scenario():
        counter = RateCounter(workers=2)
        rate = Rate(requests=10, per_s=60)  # 5 for each of two workers
        await counter.charge(rate, "k", 1000)
        spent = await counter.take(rate, "k")
        fresh = [await counter.take(rate, "j") for _ in range(6)]
        return spent, fresh

    spent, fresh = asyncio.run(scenario())
    assert spent > 0 and [wait == 0.0 for wait in fresh] == [True] * 5 + [False]


def _client(index, encoder, tmp_path, **rates):
    return TestClient(create_app(make_state(index, encoder, tmp_path, **rates)), raise_server_exceptions=False)


def test_a_key_over_its_rate_gets_429_with_retry_after(index, encoder, tmp_path):
    with _client(index, encoder, tmp_path, rate_per_key=Rate(requests=3, per_s=60)) as client:
        assert [client.post("/ask", json=QUESTION, headers=auth("bob")).status_code for _ in range(3)] == [200] * 3
        refused = client.post("/ask", json=QUESTION, headers=auth("bob"))
        assert refused.status_code == 429 and 1 <= int(refused.headers["retry-after"]) <= 60
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
        assert guesses == [401, 401, 429, 429]  # 15 a minute, 10 a failure: the third guess is refused unread
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
