"""Dataset loaders on the real files under ../shared/data (dev splits only; skipped when the data is absent)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from boundloop.evals.datasets import DatasetError, load_dataset

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")


def assert_gold_in_pool(ds) -> None:
    for q in ds.questions:
        assert set(q.supporting_doc_ids) <= set(ds.passages) and set(q.own_doc_ids) <= set(ds.passages)


@needs_data
def test_real_hotpotqa_dev() -> None:
    ds = load_dataset("hotpotqa", DATA / "hotpotqa" / "dev.jsonl")
    assert len(ds.questions) == 300 and len(ds.passages) == 2958
    assert all(len(q.supporting_doc_ids) == 2 for q in ds.questions)
    assert Counter(q.qtype for q in ds.questions) == {"bridge": 238, "comparison": 62}
    assert_gold_in_pool(ds)


@needs_data
def test_real_musique_dev() -> None:
    ds = load_dataset("musique", DATA / "musique" / "dev.jsonl")
    assert len(ds.questions) == 100 and len(ds.passages) == 1709 and all(q.answerable for q in ds.questions)
    assert all(2 <= len(q.supporting_doc_ids) <= 4 and len(q.own_doc_ids) == 20 for q in ds.questions)
    assert_gold_in_pool(ds)


@needs_data
def test_real_musique_full_with_unanswerable() -> None:
    ds = load_dataset("musique", DATA / "musique" / "full_with_unanswerable_20.jsonl")
    assert len(ds.questions) == 20 and sum(not q.answerable for q in ds.questions) == 9
    assert all(q.answers and len(q.supporting_doc_ids) >= 2 for q in ds.questions if q.answerable)
    assert all(not q.answers for q in ds.questions if not q.answerable)
    assert_gold_in_pool(ds)


@needs_data
def test_real_2wikimultihopqa_dev() -> None:
    path = DATA / "2wikimultihopqa" / "dev.jsonl"
    with pytest.raises(DatasetError, match=r"dev\.jsonl:8: row has no 'context'"):
        load_dataset("2wikimultihopqa", path)
    ds = load_dataset("2wikimultihopqa", path, skip_rows_without_context=True)
    assert len(ds.questions) == 80 and len(ds.passages) == 683
    assert all(len(q.supporting_doc_ids) in (2, 4) for q in ds.questions)
    assert_gold_in_pool(ds)


@needs_data
def test_real_squad2_subset() -> None:
    ds = load_dataset("squad2", DATA / "unanswerable" / "squad2_dev_normans_rhine.json")
    assert len(ds.questions) == 706 and len(ds.passages) == 83
    assert sum(not q.answerable for q in ds.questions) == 320
    assert all(bool(q.supporting_doc_ids) == q.answerable == bool(q.answers) for q in ds.questions)
    assert_gold_in_pool(ds)


@needs_data
@pytest.mark.parametrize("user", ["employee", "hr"])
def test_real_contoso(user: str) -> None:
    ds = load_dataset("contoso", DATA / "enterprise" / "contoso", user=user)
    assert len(ds.passages) == 263 and len(ds.questions) == 50
    assert ds.directory == {"employee": ["GPTKB_EmployeeTest"], "hr": ["GPTKB_HRTest"]}
    acl = {p.title: p.acl for p in ds.passages.values()}
    assert acl["employee_handbook.pdf"] == acl["role_library.pdf"] == ("GPTKB_AdminTest", "GPTKB_HRTest")
    assert acl["PerksPlus.pdf"] == ("GPTKB_AdminTest", "GPTKB_EmployeeTest", "GPTKB_HRTest")
    # The ground truth cites only the two benefit-plan documents, which both users may read.
    assert all(q.answerable and not q.forbidden_doc_ids and q.user == user for q in ds.questions)
    assert Counter(len(q.supporting_doc_ids) for q in ds.questions) == {1: 25, 2: 25}
    assert_gold_in_pool(ds)


@needs_data
def test_real_sec10q() -> None:
    ds = load_dataset("sec10q", DATA / "enterprise" / "sec10q")
    assert len(ds.passages) == 1037 and len(ds.questions) == 195
    assert Counter(q.qtype for q in ds.questions) == {
        "Single-Doc Single-Chunk RAG": 76, "Single-Doc Multi-Chunk RAG": 54, "Multi-Doc RAG": 65}
    documents = [{ds.passages[d].title for d in q.supporting_doc_ids} for q in ds.questions]
    single = [docs for q, docs in zip(ds.questions, documents, strict=True) if q.qtype.startswith("Single-Doc")]
    assert len(single) == 130 and all(len(docs) == 1 for docs in single)
    assert Counter(len(docs) for docs in documents) == {1: 134, 4: 51, 3: 8, 2: 2}
    assert not any(q.answers[0].split("\n")[-1].lstrip().startswith("SOURCE(S)") for q in ds.questions)
    assert_gold_in_pool(ds)
