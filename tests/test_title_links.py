"""Title links: the documents a list of names titles, trimmed to the user's groups, on both backends."""

import pytest

from boundloop.domain.names import join_names, normalise_name, split_names, title_keys
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.search import EntitledSearcher, hybrid_search
from tests.conftest import access

LINKED = [
    Document(doc_id="film", title="Into the Badlands (TV series)", text="An AMC series. It premiered in 2015.",
             acl=("all-staff",)),
    Document(doc_id="town", title="Christies Beach, South Australia", text="A suburb south of Adelaide.",
             acl=("all-staff",)),
    Document(doc_id="architect", title="Marcus T. Reynolds", text="An architect from Albany, New York.",
             acl=("all-staff",)),
    Document(doc_id="secret-twin", title="Priya Raman (board file)", text="Board notes about Priya Raman.",
             acl=("leadership",)),
    Document(doc_id="long", title="Travel policy", text=" ".join(["Book trains for short trips."] * 120),
             acl=("all-staff",)),
]


@pytest.fixture
def linked(backend, encoder):
    ingest(backend, encoder, LINKED, show_progress=False)
    return backend


def titled(index, encoder, names, groups=("all-staff",), k=5):
    hits = hybrid_search(index, encoder, join_names(names), access(*groups), k=k, mode="title")
    return [h.doc_id for h in hits]


def test_keys_cover_the_whole_title_the_bare_name_and_the_part_before_a_comma():
    assert title_keys("Into the Badlands (TV series)") == {"into the badlands tv series", "into the badlands"}
    assert "christies beach" in title_keys("Christies Beach, South Australia")
    assert normalise_name("Marcus T.\nReynolds") == "marcus t reynolds"


def test_names_round_trip_and_repeat_once():
    assert split_names(join_names(["Brooklyn", "brooklyn", " Into the Badlands ", ""])) == [
        "Brooklyn", "Into the Badlands"]


def test_a_name_finds_the_document_it_titles(linked, encoder):
    assert titled(linked, encoder, ["Into the Badlands"]) == ["film"]
    assert titled(linked, encoder, ["Christies Beach"]) == ["town"]
    assert titled(linked, encoder, ["Marcus T. Reynolds"]) == ["architect"]


def test_names_that_title_nothing_find_nothing(linked, encoder):
    assert titled(linked, encoder, ["Badlands", "Albany", "Nobody Here"]) == []


def test_results_follow_the_order_of_the_names_and_stop_at_k(linked, encoder):
    assert titled(linked, encoder, ["Marcus T Reynolds", "Into the Badlands", "Christies Beach"], k=2) == [
        "architect", "film"]


def test_the_hit_is_the_documents_lead_chunk(linked, encoder):
    hits = hybrid_search(linked, encoder, "Travel policy", access("all-staff"), k=3, mode="title")
    assert [h.chunk_id for h in hits] == ["long#0"]
    assert hits[0].bm25_rank is None and hits[0].dense_rank is None


@pytest.mark.parametrize("groups", [("all-staff",), ("hr",), ()])
def test_a_title_outside_the_users_groups_is_never_linked(linked, encoder, groups):
    assert "secret-twin" not in titled(linked, encoder, ["Priya Raman", "Salary bands"], groups=groups)
    assert "salaries" not in titled(linked, encoder, ["Salary bands"], groups=groups) or "hr" in groups


def test_the_limit_counts_permitted_documents_only(linked, encoder):
    # the leadership-only document comes first among the names; bob still gets k permitted ones
    assert titled(linked, encoder, ["Priya Raman", "Into the Badlands"], k=1) == ["film"]
    assert titled(linked, encoder, ["Priya Raman"], groups=("leadership",)) == ["secret-twin"]


def test_entitled_searcher_supports_title_mode(linked, encoder):
    searcher = EntitledSearcher(linked, encoder, access("all-staff"))
    assert [h.doc_id for h in searcher.search("Salary bands | Expense policy", k=5, mode="title")] == ["expense"]


def test_deleted_or_renamed_documents_drop_out_of_the_links(linked, encoder):
    from boundloop.retrieval.ingest import delete

    delete(linked, ["film"])
    renamed = Document(doc_id="town", title="Port Noarlunga", text="A suburb south of Adelaide.", acl=("all-staff",))
    ingest(linked, encoder, [renamed], show_progress=False)
    assert titled(linked, encoder, ["Into the Badlands", "Christies Beach"]) == []
    assert titled(linked, encoder, ["Port Noarlunga"]) == ["town"]


def test_title_query_syntax_is_data(linked, encoder):
    for names in (["' OR 1=1 --"], ["%"], ["_"], ["title : salary"], ["\\W"]):
        assert titled(linked, encoder, names, groups=("all-staff",)) == []
