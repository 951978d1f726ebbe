import pytest

from boundloop.retrieval.backend import Candidate
from boundloop.retrieval.fusion import reciprocal_rank_fusion
from boundloop.retrieval.search import EntitledSearcher, hybrid_search
from tests.conftest import access

RESTRICTED = {"salaries": {"hr"}, "reorg": {"leadership"}, "orphan": set()}


@pytest.fixture
def index(backend):
    """Every test here runs against both backends (the `backend` fixture is parametrised: sqlite, postgres)."""
    return backend


def visible_docs(index, encoder, groups, query, mode="hybrid", k=50):
    return {h.doc_id for h in hybrid_search(index, encoder, query, access(*groups), k=k, mode=mode)}


@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid"])
@pytest.mark.parametrize(
    "groups", [("all-staff",), ("all-staff", "hr"), ("all-staff", "leadership"), ("hr",), ()]
)
@pytest.mark.parametrize("query", ["salary bands engineers", "expense approval Priya", "CANARY", "note"])
def test_no_chunk_outside_the_users_groups(index, encoder, mode, groups, query):
    for doc_id in visible_docs(index, encoder, groups, query, mode):
        allowed = RESTRICTED.get(doc_id, {"all-staff"})
        assert allowed & set(groups), f"{doc_id} leaked to {groups}"


def test_top_k_are_k_permitted_chunks(index, encoder):
    # the restricted salary chunk is the best match, but bob still gets k permitted chunks
    hits = hybrid_search(index, encoder, "salary bands engineers", access("all-staff"), k=3)
    assert len(hits) == 3 and "salaries" not in {h.doc_id for h in hits}


def test_permitted_user_finds_restricted_document(index, encoder):
    hits = hybrid_search(index, encoder, "salary bands engineers", access("hr"), k=1)
    assert hits[0].doc_id == "salaries"
    assert hits[0].bm25_rank == 1 and hits[0].dense_rank == 1


def test_user_without_groups_sees_nothing(index, encoder):
    assert hybrid_search(index, encoder, "expense", access(), k=10) == []


def test_document_without_acl_is_visible_to_nobody(index, encoder):
    everyone = ("all-staff", "hr", "leadership", "finance")
    assert "orphan" not in visible_docs(index, encoder, everyone, "expense note access list")


def test_fts_syntax_in_query_is_data(index, encoder):
    for query in ['acl_tokens : g1', '"unbalanced', "NEAR(a b)", "* OR *", "title:salary"]:
        for hit in hybrid_search(index, encoder, query, access("all-staff"), k=10, mode="keyword"):
            assert hit.doc_id not in RESTRICTED


def test_hits_carry_each_retrievers_rank(index, encoder):
    hit = hybrid_search(index, encoder, "Priya Raman room", access("all-staff"), k=1)[0]
    assert hit.doc_id == "seating"
    assert hit.bm25_rank and hit.dense_rank and hit.bm25_score and hit.dense_score


def test_rrf_fuses_by_rank():
    fused = reciprocal_rank_fusion(
        {"a": [Candidate("x", 9), Candidate("y", 5)], "b": [Candidate("y", 0.9), Candidate("z", 0.1)]}, k=60
    )
    assert [c for c, _ in fused] == ["y", "x", "z"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_searcher_requires_an_access_filter(index, encoder):
    with pytest.raises(TypeError):
        EntitledSearcher(index, encoder, {"groups": ["hr"]})  # type: ignore[arg-type]


def test_searcher_timeout(index, encoder, monkeypatch):
    import time

    from boundloop.retrieval.errors import SearchTimeout

    searcher = EntitledSearcher(index, encoder, access("all-staff"))
    monkeypatch.setattr(index, "keyword_candidates", lambda *a, **k: time.sleep(2) or [])
    started = time.monotonic()
    with pytest.raises(SearchTimeout):
        searcher.search("expense", timeout=0.2)
    assert time.monotonic() - started < 1.0


def test_timed_out_search_stops_its_database_work(index, encoder, monkeypatch):
    import time

    from boundloop.retrieval.errors import SearchTimeout
    from tests.postgres_backend import probes

    searcher = EntitledSearcher(index, encoder, access("all-staff"))
    try:
        with monkeypatch.context() as patch:
            patch.setattr(*probes.slow_keyword_query(index))
            with pytest.raises(SearchTimeout):
                searcher.search("expense", timeout=0.3)
        stopped = time.monotonic() + 2.0
        while probes.keyword_query_running(index) and time.monotonic() < stopped:
            time.sleep(0.05)
        assert not probes.keyword_query_running(index), "the abandoned keyword query is still running"
        started = time.monotonic()
        hits = searcher.search("expense approval", timeout=5.0)
        assert hits and time.monotonic() - started < 1.0
    finally:
        if hasattr(index, "_conn"):
            index._conn.interrupt()  # if the fix broke: do not leave SQLite counting for a minute


def test_ingest_after_search_refreshes_vectors(index, encoder, tmp_path):
    import json

    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.loaders import load_jsonl

    assert visible_docs(index, encoder, ("all-staff",), "zebra migration", mode="vector", k=1) != {"zebra"}
    path = tmp_path / "z.jsonl"
    path.write_text(json.dumps({"id": "zebra", "text": "Zebra migration season", "acl": ["all-staff"]}) + "\n")
    ingest(index, encoder, load_jsonl(path), show_progress=False)
    assert visible_docs(index, encoder, ("all-staff",), "zebra migration", mode="vector", k=1) == {"zebra"}


def test_langchain_retriever_is_trimmed(index, encoder):
    from boundloop.retrieval.langchain_retriever import EntitledRetriever

    retriever = EntitledRetriever.for_searcher(EntitledSearcher(index, encoder, access("all-staff")), k=10)
    docs = retriever.invoke("salary bands CANARY")
    assert docs and all(d.metadata["doc_id"] not in RESTRICTED for d in docs)
    assert all("CANARY" not in d.page_content for d in docs)
    # a document's metadata is the hit's fields, not its typed units (several times the text's size)
    assert all("units" not in d.metadata and "heading_path" in d.metadata for d in docs)


_DEADLOCK_PROBE = """
import sys, threading
from pathlib import Path
import boundloop.retrieval.sqlite_index as sqlite_index
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.retrieval.search import EntitledSearcher
from tests.conftest import HashEncoder, access
sqlite_index.DEADLINE_CHECK_STEPS = 1  # the deadline handler runs at every SQLite step
index, encoder = sqlite_index.SqliteIndex(sys.argv[1], create=True), HashEncoder()
ingest(index, encoder, load_jsonl(Path(sys.argv[2])), show_progress=False)
def work():
    for _ in range(150):
        EntitledSearcher(index, encoder, access("all-staff")).search("expense approval", timeout=30)
        assert index.encoder_name and index.stats()["documents"]
threads = [threading.Thread(target=work) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print("done")
"""


def test_searches_with_deadlines_beside_other_index_reads_never_deadlock(tmp_path, docs_jsonl):
    """The deadline handler needs the GIL while SQLite holds the connection: no reader may wait on it holding the GIL.

    A deadlock freezes the whole process (GIL included), so the probe runs in a child process with a timeout.
    """
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    probe = subprocess.run(
        [sys.executable, "-c", _DEADLOCK_PROBE, str(tmp_path / "index"), str(docs_jsonl)],
        cwd=root, capture_output=True, text=True, timeout=120, check=False,  # a deadlock raises TimeoutExpired
    )
    assert probe.returncode == 0 and "done" in probe.stdout, probe.stderr[-2000:]
