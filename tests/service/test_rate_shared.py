"""Rate limits across workers: counted together in a real Redis, or as each worker's share in memory."""

from __future__ import annotations

import pytest
import redis
from fastapi.testclient import TestClient

from boundloop.service.app import create_app
from boundloop.service.rate_limit import Rate
from boundloop.service.rate_store import RateStoreError, check_reachable, shared_uri, shown
from tests.service.conftest import make_state
from tests.service.keys import auth
from tests.service.redis_server import MISSING, available, redis_server

QUESTION = {"question": "Who approves expense claims above EUR 5,000?"}
PER_KEY = Rate(requests=4, per_s=60)


@pytest.fixture
def redis_url(tmp_path):
    if not available():
        pytest.skip(MISSING)
    with redis_server(tmp_path) as url:
        yield url


def _two_workers(index, encoder, tmp_path, **settings):
    """Two app instances over one run store: two workers of one service."""
    apps = [create_app(make_state(index, encoder, tmp_path, rate_per_key=PER_KEY, workers=2, **settings))
            for _ in range(2)]
    return [TestClient(app, raise_server_exceptions=False) for app in apps]


def _posts(client, count: int, user: str = "bob") -> list[int]:
    return [client.post("/ask", json=QUESTION, headers=auth(user)).status_code for _ in range(count)]


def _alternate(clients, count: int, user: str = "bob") -> list[int]:
    return [clients[n % 2].post("/ask", json=QUESTION, headers=auth(user)).status_code for n in range(count)]


def test_two_workers_sharing_redis_allow_the_rate_once(index, encoder, tmp_path, redis_url):
    first, second = _two_workers(index, encoder, tmp_path, rate_storage=redis_url)
    with first, second:
        assert _posts(first, 3) == [200] * 3  # more than one worker's share: the count is the service's
        assert _posts(second, 2) == [200, 429]
        assert _alternate([first, second], 4) == [429] * 4
        assert _alternate([first, second], 2, user="alice") == [200, 200]  # another key, its own count


def test_two_workers_in_memory_each_allow_their_share(index, encoder, tmp_path):
    first, second = _two_workers(index, encoder, tmp_path)
    with first, second:
        assert _posts(first, 3) == [200, 200, 429]  # 4 a minute over two workers: 2 each
        assert _alternate([first, second], 2) == [429, 200]
        assert _posts(second, 2) == [200, 429]


def test_a_store_that_goes_away_leaves_each_worker_its_share(index, encoder, tmp_path, redis_url):
    first, second = _two_workers(index, encoder, tmp_path, rate_storage=redis_url)
    with first, second:
        assert _alternate([first, second], 2) == [200, 200]  # counted in Redis
        redis.Redis.from_url(redis_url).shutdown(nosave=True)
        # the store is gone: no 500, each worker counts its share (2 of 4) in memory, from nothing
        assert _posts(first, 3) == [200, 200, 429]


def test_an_unreachable_or_unknown_store_is_one_clear_error():
    with pytest.raises(RateStoreError, match=r"BOUNDLOOP_RATE_STORAGE='redis://:\*\*\*@127.0.0.1:1/0': .*not answer"):
        check_reachable("redis://:hunter2@127.0.0.1:1/0")
    with pytest.raises(RateStoreError, match="must be memory:// or redis://"):
        shared_uri("memcached://cache:11211")
    assert shared_uri("memory://") is None and shared_uri(None) is None
    assert shown("rediss://user:pw@cache:6380/1") == "rediss://user:***@cache:6380/1"
