"""PostgreSQL-only fixtures (the both-backends ones live in tests/conftest.py)."""

from __future__ import annotations

import pytest

from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.retrieval.postgres import PostgresIndex
from tests.postgres_backend.databases import drop_index


@pytest.fixture
def pg(pg_index_database, encoder, docs_jsonl):
    """The small test corpus in a PostgreSQL index (fresh schema in the module's database)."""
    drop_index(pg_index_database)
    index = PostgresIndex(pg_index_database, create=True)
    ingest(index, encoder, load_jsonl(docs_jsonl), show_progress=False)
    yield index
    index.close()
