"""The database being down: a clear error (no traceback, no password), and the loop abstains instead of crashing."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from boundloop.retrieval.config import open_backend
from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.retrieval.postgres import PostgresIndex
from boundloop.retrieval.postgres.errors import IndexUnavailableError
from boundloop.retrieval.postgres.roles import provision_roles
from boundloop.retrieval.postgres.settings import PgSettings
from boundloop.retrieval.search import EntitledSearcher
from tests.conftest import access
from tests.loop_fixtures import make_runner
from tests.postgres_backend.databases import READER, WRITER, as_role
from tests.service import postgres

pytestmark = pytest.mark.slow
CLOSED = "postgresql://boundloop_writer:s3cret-pw@127.0.0.1:1/boundloop"


def test_a_closed_port_is_a_clean_quick_error():
    started = time.monotonic()
    with pytest.raises(IndexUnavailableError, match="unavailable") as caught:
        open_backend(CLOSED)
    assert time.monotonic() - started < 5
    assert "s3cret-pw" not in str(caught.value) and "127.0.0.1:1/boundloop" in str(caught.value)
    with pytest.raises(IndexUnavailableError):
        open_backend(CLOSED, create=True)


def test_the_cli_reports_it_without_a_traceback(directory_file):
    environ = dict(os.environ, BOUNDLOOP_INDEX=CLOSED, BOUNDLOOP_DIRECTORY=str(directory_file))
    result = subprocess.run([sys.executable, "-m", "boundloop", "search", "expense", "--user", "bob"],
                            capture_output=True, text=True, env=environ, timeout=120)
    assert result.returncode == 2, result.stderr
    assert "boundloop: error:" in result.stderr and "unavailable" in result.stderr
    assert "Traceback" not in result.stderr and "s3cret-pw" not in result.stderr


@pytest.fixture
def doomed_server():
    """A server of its own, so that the test can stop it."""
    yield from postgres.server()


def test_a_server_that_stops_mid_life(doomed_server, encoder, resolver, docs_jsonl, tmp_path):
    admin = doomed_server.get_uri()  # its own 'postgres' database: nothing to drop afterwards, the server goes
    provision_roles(admin, "postgres", WRITER, READER)
    index = PostgresIndex(PgSettings(writer_url=as_role(admin, WRITER), reader_url=as_role(admin, READER)),
                          create=True)
    ingest(index, encoder, load_jsonl(docs_jsonl), show_progress=False)
    searcher = EntitledSearcher(index, encoder, access("all-staff"))
    assert searcher.search("expense approval", k=3)
    runner = make_runner(index, encoder, resolver, tmp_path)
    doomed_server.cleanup()  # the database goes away under a live pool
    try:
        for mode in ("keyword", "vector", "hybrid"):
            with pytest.raises(IndexUnavailableError, match="unavailable"):
                searcher.search("expense approval", k=3, mode=mode)
        with pytest.raises(IndexStoreError):
            index.stored_documents()
        result = runner.ask("Who approves expense claims above EUR 5,000?", "bob")
    finally:
        index.close()
    assert result.status == "abstained", result.model_dump_json()[:500]
