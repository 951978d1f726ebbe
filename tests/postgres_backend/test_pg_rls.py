"""Row-level security: the database itself refuses rows, even to a query that forgot its ACL clause."""

from __future__ import annotations

import psycopg
import pytest

from boundloop.retrieval.postgres import PostgresIndex, index, keyword
from boundloop.retrieval.postgres.errors import IndexAccessError
from boundloop.retrieval.postgres.settings import PgSettings
from boundloop.retrieval.search import hybrid_search
from tests.conftest import access

pytestmark = pytest.mark.slow
RESTRICTED = {"salaries", "reorg", "orphan"}


def raw_doc_ids(url: str, groups: list[str] | None) -> set[str]:
    """A query without any ACL clause, as that role, with the groups set (or not) the way searches set them."""
    with psycopg.connect(url) as conn:
        if groups is not None:
            conn.execute("SELECT set_config('boundloop.groups', %s::text[]::text, true)", (groups,))
        return {doc_id for (doc_id,) in conn.execute("SELECT doc_id FROM boundloop.chunks")}


def test_a_query_without_filter_sees_only_the_groups_rows(pg):
    url = pg.settings.reader_url
    assert raw_doc_ids(url, ["all-staff"]) == {"expense", "orgchart", "seating"}
    assert raw_doc_ids(url, ["hr"]) == {"salaries"}
    assert raw_doc_ids(url, ["all-staff", "leadership", "hr", "finance"]) == {
        "expense", "orgchart", "seating", "salaries", "reorg"}  # the doc without ACL: nobody


@pytest.mark.parametrize("groups", [None, []])
def test_no_groups_set_means_no_rows(pg, groups):
    assert raw_doc_ids(pg.settings.reader_url, groups) == set()


def test_groups_last_only_for_their_transaction(pg):
    with psycopg.connect(pg.settings.reader_url) as conn:
        with conn.transaction():
            conn.execute("SELECT set_config('boundloop.groups', '{hr}', true)")
            assert conn.execute("SELECT count(*) FROM boundloop.chunks").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM boundloop.chunks").fetchone()[0] == 0


def test_a_group_name_with_a_comma_is_one_group(pg):
    assert raw_doc_ids(pg.settings.reader_url, ["hr,all-staff", "{hr}"]) == set()


def test_the_reader_cannot_read_documents_or_write(pg):
    with psycopg.connect(pg.settings.reader_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT count(*) FROM boundloop.documents")
    with psycopg.connect(pg.settings.reader_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("DELETE FROM boundloop.chunks")


def test_the_reader_role_cannot_bypass_rls_and_ingest_uses_another_role(pg):
    with psycopg.connect(pg.settings.reader_url) as conn:
        row = conn.execute(
            "SELECT current_user, rolsuper, rolbypassrls, pg_has_role(current_user, relowner, 'MEMBER'), "
            "relrowsecurity, relforcerowsecurity FROM pg_roles, pg_class "
            "WHERE rolname = current_user AND pg_class.oid = 'boundloop.chunks'::regclass"
        ).fetchone()
    assert row == ("boundloop_reader", False, False, False, True, True)
    with psycopg.connect(pg.settings.writer_url) as conn:
        owner = conn.execute("SELECT tableowner FROM pg_tables WHERE schemaname = 'boundloop' "
                             "AND tablename = 'chunks'").fetchone()
    assert owner == ("boundloop_writer",)


def test_search_code_that_forgot_its_filter_still_leaks_nothing(pg, encoder, monkeypatch):
    forgot = keyword._KEYWORD_SQL.replace("AND p.acl && %(groups)s::text[]", "").replace(
        "AND c.acl && %(groups)s::text[]", "")
    monkeypatch.setattr(keyword, "_KEYWORD_SQL", forgot)
    monkeypatch.setattr(index, "_LOAD_SQL", index._LOAD_SQL.replace("AND acl && %(groups)s::text[]", ""))
    assert "acl &&" not in keyword._KEYWORD_SQL + index._LOAD_SQL
    assert {c.chunk_id for c in pg.keyword_candidates("salary CANARY expense note", access("all-staff"), 20)} == {
        "expense#0"}
    hits = hybrid_search(pg, encoder, "salary bands CANARY expense note", access("all-staff"), k=20, mode="keyword")
    assert hits and not {h.doc_id for h in hits} & RESTRICTED
    chunks = pg.load_chunks(["salaries#0", "reorg#0", "orphan#0", "expense#0"], access("all-staff"))
    assert set(chunks) == {"expense#0"}


@pytest.mark.parametrize("who", ["writer", "admin"])
def test_searching_as_a_role_that_could_bypass_rls_is_refused(pg, pg_index_server, who):
    from tests.postgres_backend.databases import as_role

    reader = pg.settings.writer_url if who == "writer" else as_role(pg.settings.writer_url, "postgres")
    with pytest.raises(IndexAccessError, match="refusing to search as role"):
        PostgresIndex(PgSettings(writer_url=pg.settings.writer_url, reader_url=reader))



def _visible(pg, encoder, groups, query="Reorganisation plan procurement merges"):
    by_mode = {mode: {h.doc_id for h in hybrid_search(pg, encoder, query, access(*groups), k=50, mode=mode)}
               for mode in ("keyword", "vector", "hybrid")}
    by_mode["title"] = {h.doc_id for h in hybrid_search(pg, encoder, "Reorganisation plan", access(*groups), k=5,
                                                         mode="title")}
    by_mode["load"] = {c.doc_id for c in pg.load_chunks(["reorg#0"], access(*groups)).values()}
    return by_mode


def _weights(pg, groups, lexemes):
    with psycopg.connect(pg.settings.reader_url) as conn:
        conn.execute("SELECT set_config('boundloop.groups', %s::text[]::text, true)", (groups,))
        return {w for (w,) in conn.execute("SELECT lexeme FROM boundloop.term_weights(%s)", (lexemes,))}


@pytest.mark.parametrize("text", [None, "Procurement merges into finance. The reorganisation waits."])
def test_a_narrowed_acl_takes_every_path_away_from_the_old_group(pg, encoder, docs_jsonl, text):
    """Re-ingest with a narrower ACL, same text (a relabel: postings keep their rows) or new text (rows replaced):
    the old group finds it by no mode, cannot load its chunk id, and learns no weight for its words."""
    import json

    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.loaders import load_jsonl
    from tests.conftest import DOCS

    assert all("reorg" in docs for docs in _visible(pg, encoder, ["leadership"]).values())
    row = dict(DOCS[4], acl=["board"], **({"text": text} if text else {}))
    docs_jsonl.write_text(json.dumps(row) + "\n")  # the corpus's own file: same source, so a relabel is one
    report = ingest(pg, encoder, load_jsonl(docs_jsonl), show_progress=False)
    assert report.updated == 1 and report.chunks_written == (1 if text else 0)
    for mode, docs in _visible(pg, encoder, ["leadership", "all-staff"]).items():
        assert "reorg" not in docs, f"the old group still reaches it by {mode}"
    assert all("reorg" in docs for docs in _visible(pg, encoder, ["board"]).values())
    assert _weights(pg, ["leadership"], ["procur", "reorganis"]) == set()
    assert _weights(pg, ["board"], ["procur", "reorganis"]) == {"procur", "reorganis"}
