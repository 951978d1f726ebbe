"""Several servers: a multi-host reader URL (libpq's form) is accepted, and a host that is down is skipped."""

from __future__ import annotations

import socket
from urllib.parse import quote

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from boundloop.retrieval.postgres import PostgresIndex
from boundloop.retrieval.postgres.errors import IndexUnavailableError
from boundloop.retrieval.postgres.settings import PgSettings, redact
from tests.conftest import access

REPLICAS = ("postgresql://boundloop_reader@replica-1.internal:5432,replica-2.internal:5433,primary.internal:5432"
            "/search?target_session_attrs=prefer-standby&load_balance_hosts=random")


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_multi_host_reader_url_is_accepted(monkeypatch):
    monkeypatch.setenv("BOUNDLOOP_PG_READER_URL", REPLICAS)
    settings = PgSettings.from_env("postgresql://boundloop_writer@primary.internal/search")
    assert settings.reader_url == REPLICAS and settings.reader_role == "boundloop_reader"
    parts = conninfo_to_dict(settings.reader_url)
    assert parts["host"] == "replica-1.internal,replica-2.internal,primary.internal"
    assert parts["target_session_attrs"] == "prefer-standby"
    assert settings.reader_where == (
        "boundloop_reader@replica-1.internal:5432,replica-2.internal:5433,primary.internal:5432/search")


def hosts_url(settings_url: str, hosts: list[str], ports: list[str]) -> str:
    """The reader URL with a host list instead of its one server (socket folders percent-encoded, as libpq wants)."""
    parts = conninfo_to_dict(settings_url)
    netloc = ",".join(f"{quote(h, safe='')}:{p}" for h, p in zip(hosts, ports, strict=True))
    return f"postgresql://{parts['user']}@{netloc}/{parts['dbname']}?target_session_attrs=prefer-standby"


@pytest.mark.slow
def test_a_host_that_is_down_falls_through_to_the_next(pg):
    server = conninfo_to_dict(pg.settings.reader_url)["host"]  # the tests' server: a Unix-socket folder
    reader = hosts_url(pg.settings.reader_url, ["127.0.0.1", str(server)], [str(closed_port()), "5432"])
    index = PostgresIndex(PgSettings(writer_url=pg.settings.writer_url, reader_url=reader))
    try:
        found = index.keyword_candidates("expense approval", access("all-staff"), 5)
        assert found and {c.chunk_id for c in found} <= {"expense#0", "orgchart#0", "seating#0"}
        with index._reader_pool().connection() as conn:  # every pooled connection went to the live server
            assert conn.info.host == server
    finally:
        index.close()
    with psycopg.connect(reader) as conn:  # prefer-standby found no standby, so it took the primary
        assert conn.execute("SELECT pg_is_in_recovery()").fetchone() == (False,)


@pytest.mark.slow
def test_every_host_down_is_one_clear_error(pg):
    reader = hosts_url(pg.settings.reader_url, ["127.0.0.1", "127.0.0.1"], [str(closed_port()), str(closed_port())])
    with pytest.raises(IndexUnavailableError, match="is unavailable") as caught:
        PostgresIndex(PgSettings(writer_url=pg.settings.writer_url, reader_url=reader))
    assert redact(reader) in str(caught.value) and "\n" not in str(caught.value)
