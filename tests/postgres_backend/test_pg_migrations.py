"""The schema is the project's: numbered migrations in a version table, applied on first ingest, checked on open."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.postgres import PostgresIndex, migrations
from tests.postgres_backend.databases import drop_index

pytestmark = pytest.mark.slow


@pytest.fixture
def settings(pg_index_database):
    drop_index(pg_index_database)
    return pg_index_database


def versions(url: str) -> list[int]:
    with psycopg.connect(url) as conn:
        return [v for (v,) in conn.execute("SELECT version FROM boundloop.schema_version ORDER BY version")]


def test_first_writer_open_creates_the_schema_and_reopening_applies_nothing(settings):
    PostgresIndex(settings, create=True).close()
    assert versions(settings.writer_url) == [v for v, _, _ in migrations.MIGRATIONS]
    with psycopg.connect(settings.writer_url) as conn:
        assert migrations.migrate(conn) == []


def test_searching_a_database_without_an_index_says_so(settings):
    with pytest.raises(IndexStoreError, match="no boundloop index"):
        PostgresIndex(settings)


def test_an_index_behind_this_build_is_refused_until_migrated(settings):
    PostgresIndex(settings, create=True).close()
    with psycopg.connect(settings.writer_url) as conn:
        conn.execute("DELETE FROM boundloop.schema_version WHERE version = %s", (migrations.LATEST,))
    with pytest.raises(IndexStoreError, match="schema version"):
        PostgresIndex(settings)


def test_workers_opening_together_migrate_once(settings):
    with ThreadPoolExecutor(4) as pool:
        indexes = list(pool.map(lambda _: PostgresIndex(settings, create=True), range(4)))
    for index in indexes:
        index.close()
    assert versions(settings.writer_url) == [v for v, _, _ in migrations.MIGRATIONS]


def test_first_ingest_binds_the_encoder_dimension_and_builds_hnsw(pg):
    with psycopg.connect(pg.settings.writer_url) as conn:
        column = conn.execute("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                              "WHERE attrelid = 'boundloop.chunks'::regclass AND attname = 'embedding'").fetchone()
        hnsw = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_embedding_hnsw'").fetchone()
    assert column == ("vector(64)",)
    assert hnsw and "hnsw" in hnsw[0] and "vector_cosine_ops" in hnsw[0]
    assert pg.encoder_name == "test-hash-64"


def test_migration_5_fills_the_postings_of_an_index_written_before_it(settings, monkeypatch):
    from tests.conftest import access

    with monkeypatch.context() as before:  # an index at schema 4, with rows written then
        before.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:4])
        with psycopg.connect(settings.writer_url) as conn:
            migrations.migrate(conn)
            conn.execute("INSERT INTO boundloop.documents VALUES ('exp', 'Expense policy', '', '{staff}', '{}', 'h1'),"
                         " ('pay', 'Salary bands', '', '{hr}', '{}', 'h2')")
            conn.execute("INSERT INTO boundloop.chunks (chunk_id, doc_id, ordinal, title, text, source, acl, embedding)"
                         " VALUES ('exp#0', 'exp', 0, 'Expense policy', 'Expenses above 5,000 need approval.', '',"
                         " '{staff}', '[1,0]'), ('pay#0', 'pay', 0, 'Salary bands', 'Expense of salaries.', '',"
                         " '{hr}', '[0,1]')")
            conn.execute("UPDATE boundloop.meta SET value = '2' WHERE key = 'chunks'")
    PostgresIndex(settings, create=True).close()  # the writer migrates to the latest
    with psycopg.connect(settings.writer_url) as conn:
        assert conn.execute("SELECT chunks FROM boundloop.terms WHERE lexeme = 'expens'").fetchone() == (2,)
        assert conn.execute("SELECT count(DISTINCT chunk) FROM boundloop.postings").fetchone() == (2,)
    index = PostgresIndex(settings)
    try:
        assert [c.chunk_id for c in index.keyword_candidates("expense approval", access("staff"), 10)] == ["exp#0"]
        assert [c.chunk_id for c in index.keyword_candidates("expense", access("hr"), 10)] == ["pay#0"]
        assert index.title_candidates(["Salary bands"], access("hr"), 5)[0].chunk_id == "pay#0"
    finally:
        index.close()



def _written_at(settings, monkeypatch, schema: int, title: str = "Expense policy",
                text: str = "Limit: EUR 5,000") -> None:
    """An index at migration `schema` with one document and chunk written then, migrated to the latest by a writer."""
    with monkeypatch.context() as before:
        before.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:schema])
        with psycopg.connect(settings.writer_url) as conn:
            migrations.migrate(conn)
            conn.execute("INSERT INTO boundloop.documents VALUES ('exp', %s, '', '{staff}', '{}', 'h1')", (title,))
            conn.execute("INSERT INTO boundloop.chunks (chunk_id, doc_id, ordinal, title, text, source, acl, embedding)"
                         " VALUES ('exp#0', 'exp', 0, %s, %s, '', '{staff}', '[1,0]')", (title, text))
    PostgresIndex(settings, create=True).close()  # the writer migrates to the latest
    assert versions(settings.writer_url)[-1] == migrations.LATEST


def test_migration_7_keeps_chunks_written_before_it_with_no_markdown(settings, monkeypatch):
    from tests.conftest import access

    _written_at(settings, monkeypatch, 6)  # an index at schema 6, with a row written then
    index = PostgresIndex(settings)
    try:
        loaded = index.load_chunks(["exp#0"], access("staff"))
        assert (loaded["exp#0"].text, loaded["exp#0"].markdown) == ("Limit: EUR 5,000", "")  # the page shows it flat
    finally:
        index.close()


def test_migration_8_reads_chunks_written_before_it_as_undated(settings, monkeypatch):
    from tests.conftest import access

    _written_at(settings, monkeypatch, 7, "Expense policy 2025", "Effective date: 1 April 2025")
    index = PostgresIndex(settings)
    try:  # undated until the next ingest re-writes it (the chunker's version is in every content hash)
        assert index.load_chunks(["exp#0"], access("staff"))["exp#0"].document_date is None
    finally:
        index.close()


def test_migration_9_reads_chunks_written_before_it_from_their_text_until_re_ingested(settings, monkeypatch, encoder):
    from boundloop.retrieval.documents import Document
    from boundloop.retrieval.ingest import ingest
    from tests.conftest import access

    _written_at(settings, monkeypatch, 8)  # an index at schema 8, with a row written then
    assert migrations.LATEST == 9
    index = PostgresIndex(settings)
    try:  # no units until the next ingest re-writes the row: the reader reads its text as before
        assert index.load_chunks(["exp#0"], access("staff"))["exp#0"].units is None
    finally:
        index.close()
    with psycopg.connect(settings.writer_url) as conn:  # as the first ingest would have bound it
        conn.execute("DELETE FROM boundloop.chunks")
        conn.execute("DELETE FROM boundloop.documents")
    index = PostgresIndex(settings, create=True)
    try:
        text = "# Expenses\n\n## 5. Approval of claims\n\nThe following roles may approve:\n\n- Line manager\n"
        ingest(index, encoder, [Document("exp", "Expense policy", text, ("staff",))], show_progress=False)
        stored = index.load_chunks(["exp#0"], access("staff"))["exp#0"].units
        assert stored is not None
        item = stored.units[-1]
        assert (item.kind, item.heading_path, item.lead) == ("item", ["Expenses", "5. Approval of claims"],
                                                            "The following roles may approve:")
    finally:
        index.close()
