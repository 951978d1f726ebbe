"""Selecting and configuring the PostgreSQL backend: URL dispatch, reader URL, redaction."""

from __future__ import annotations

import pytest

from boundloop.retrieval.config import open_backend
from boundloop.retrieval.postgres import PostgresIndex
from boundloop.retrieval.postgres.settings import PgSettings, derive_reader_url, redact
from boundloop.retrieval.sqlite_index import SqliteIndex

WRITER = "postgresql://boundloop_writer:pw@db.internal:5433/search"


def test_reader_url_from_the_environment_wins(monkeypatch):
    monkeypatch.setenv("BOUNDLOOP_PG_READER_URL", "postgresql://reader:x@db.internal/search")
    assert PgSettings.from_env(WRITER).reader_role == "reader"


def test_reader_url_is_derived_with_the_reader_role_and_no_password(monkeypatch):
    monkeypatch.delenv("BOUNDLOOP_PG_READER_URL", raising=False)
    monkeypatch.setenv("BOUNDLOOP_PG_READER_ROLE", "searcher")
    settings = PgSettings.from_env(WRITER)
    assert settings.reader_role == "searcher"
    assert "pw" not in settings.reader_url and "db.internal" in settings.reader_url
    assert derive_reader_url(WRITER, "boundloop_reader").startswith("user=boundloop_reader")


def test_messages_never_carry_the_password():
    assert redact(WRITER) == "boundloop_writer@db.internal:5433/search"


def test_a_folder_stays_the_default(tmp_path):
    backend = open_backend(str(tmp_path / "idx"), create=True)
    assert isinstance(backend, SqliteIndex)
    backend.close()


@pytest.mark.slow
def test_a_postgresql_url_opens_the_server_backend(pg, monkeypatch):
    monkeypatch.setenv("BOUNDLOOP_PG_READER_URL", pg.settings.reader_url)
    backend = open_backend(pg.settings.writer_url)
    try:
        assert isinstance(backend, PostgresIndex) and backend.encoder_name == "test-hash-64"
    finally:
        backend.close()
