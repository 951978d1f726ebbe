"""Dataset loaders on synthetic fixtures for every format (the real files: `test_real_datasets.py`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from boundloop.evals.datasets import DATASETS, DatasetError, load_dataset

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().split("\n"), start=1) if needle in line)


# --- HotpotQA -------------------------------------------------------------------------------------------

HOTPOT = [
    {"id": "h1", "question": "Q1?", "answer": "yes", "type": "comparison",
     "context": [["Alpha", ["Alpha one.", " Alpha two."]], ["Beta", ["Beta one."]], ["Gamma", ["Gamma."]]],
     "supporting_facts": [["Alpha", 0], ["Beta", 0], ["Alpha", 1]]},
    {"id": "h2", "question": "Q2?", "answer": "Delta", "type": "bridge",
     "context": [["Alpha", ["Another Alpha text."]], ["Delta", ["Delta."]]],
     "supporting_facts": [["Delta", 0], ["Alpha", 0]]},
]


def hugging_face_layout(row: dict) -> dict:
    titles = [title for title, _ in row["context"]]
    return {**row, "context": {"title": titles, "sentences": [s for _, s in row["context"]]},
            "supporting_facts": {"title": [t for t, _ in row["supporting_facts"]],
                                 "sent_id": [i for _, i in row["supporting_facts"]]}}


def test_hotpotqa_both_layouts_give_the_same_dataset(tmp_path: Path) -> None:
    hf = write_jsonl(tmp_path / "hf.jsonl", [hugging_face_layout(r) for r in HOTPOT])
    original = tmp_path / "original.json"
    original.write_text(json.dumps([{**{k: v for k, v in r.items() if k != "id"}, "_id": r["id"]} for r in HOTPOT]))
    a, b = load_dataset("hotpotqa", hf), load_dataset("hotpotqa", original)
    assert a.questions == b.questions and a.passages == b.passages
    q1, q2 = a.questions
    assert (q1.qid, q1.answers, q1.qtype, q1.answerable) == ("h1", ("yes",), "comparison", True)
    assert q1.supporting_doc_ids == ("Alpha", "Beta") and q1.own_doc_ids == ("Alpha", "Beta", "Gamma")
    assert q2.supporting_doc_ids == ("Delta", "Alpha")
    assert list(a.passages) == ["Alpha", "Beta", "Gamma", "Delta"]
    assert a.passages["Alpha"].text == "Alpha one. Alpha two."  # first text kept, sentences rejoined
    assert a.passages["Alpha"].acl == ("all",) and a.directory == {"eval": ["all"]}


def test_hotpotqa_limit_keeps_only_the_loaded_questions_passages(tmp_path: Path) -> None:
    ds = load_dataset("hotpotqa", write_jsonl(tmp_path / "d.jsonl", HOTPOT), limit=1)
    assert [q.qid for q in ds.questions] == ["h1"] and set(ds.passages) == {"Alpha", "Beta", "Gamma"}
    assert load_dataset("hotpotqa", tmp_path / "d.jsonl", limit=0).questions == []


def test_hotpotqa_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = {**HOTPOT[1], "supporting_facts": [["Nowhere", 0]]}
    path = write_jsonl(tmp_path / "d.jsonl", [HOTPOT[0], bad])
    with pytest.raises(ValueError, match=rf"{re.escape(str(path))}:2: .*'Nowhere'"):
        load_dataset("hotpotqa", path)
    path.write_text(json.dumps(HOTPOT[0]) + "\n{broken\n")
    with pytest.raises(DatasetError, match=r"d\.jsonl:2: broken JSON"):
        load_dataset("hotpotqa", path)
    array = tmp_path / "a.json"
    array.write_text("[\n" + json.dumps(HOTPOT[0]) + ",\n" + json.dumps({**HOTPOT[1], "answer": ""}) + "\n]")
    with pytest.raises(DatasetError, match=r"a\.json:3: field 'answer' must be a non-empty string"):
        load_dataset("hotpotqa", array)
    with pytest.raises(ValueError, match=r"missing\.jsonl: no such file"):
        load_dataset("hotpotqa", tmp_path / "missing.jsonl")


# --- MuSiQue --------------------------------------------------------------------------------------------

def paragraph(idx: int, title: str, text: str, gold: bool = False) -> dict:
    return {"idx": idx, "title": title, "paragraph_text": text, "is_supporting": gold}


MUSIQUE = [
    {"id": "2hop__1_2", "question": "M1?", "answer": "Paris", "answer_aliases": ["Paris", "City of Light"],
     "paragraphs": [paragraph(0, "Paris", "Paris v1.", True), paragraph(1, "Lyon", "Lyon.", True),
                    paragraph(2, "Nice", "Nice.")]},
    {"id": "3hop1__3_4_5", "question": "M2?", "answer": "x", "answer_aliases": [], "answerable": False,
     "paragraphs": [paragraph(0, "Paris", "Paris v2.", True), paragraph(1, "Lyon", "Lyon.")]},
]


def test_musique_ids_hash_only_titles_with_several_texts_and_ignore_limit(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", MUSIQUE)
    ds = load_dataset("musique", path)
    paris = [pid for pid in ds.passages if pid.startswith("Paris#")]
    assert len(paris) == 2 and all(re.fullmatch(r"Paris#[0-9a-f]{8}", pid) for pid in paris)
    assert set(ds.passages) == {*paris, "Lyon", "Nice"}
    q1, q2 = ds.questions
    assert q1.answers == ("Paris", "City of Light") and q1.answerable and q1.qtype == "2hop"
    assert q1.supporting_doc_ids == (paris[0], "Lyon") and q1.own_doc_ids == (paris[0], "Lyon", "Nice")
    assert (q2.answerable, q2.answers, q2.qtype, q2.supporting_doc_ids) == (False, (), "3hop1", (paris[1],))
    first = load_dataset("musique", path, limit=1)
    assert set(first.passages) == {paris[0], "Lyon", "Nice"}


def test_musique_malformed_paragraph(tmp_path: Path) -> None:
    row = {**MUSIQUE[0], "paragraphs": [{"idx": 0, "title": "T", "paragraph_text": "x"}]}
    with pytest.raises(DatasetError, match=r"m\.jsonl:1: field 'is_supporting' must be true or false"):
        load_dataset("musique", write_jsonl(tmp_path / "m.jsonl", [row]))


# --- 2WikiMultihopQA ------------------------------------------------------------------------------------

WIKI2 = [
    {"_id": "w1", "type": "compositional", "question": "W1?", "answer": "Fårö",
     "context": [["Film", ["A film.", "By Bergman."]], ["Bergman", ["Died in Fårö."]]],
     "supporting_facts": [["Film", 0], ["Bergman", 0]]},
    {"_id": "w2", "type": "comparison", "question": "W2?", "answer": "A", "supporting_facts": [["A", 0]]},
    {"_id": "w3", "type": "comparison", "question": "W3?", "answer": "B",
     "context": [["B", ["B."]], ["Film", ["Other film text."]]], "supporting_facts": [["B", 0]]},
]


def test_2wiki_rows_without_context_fail_unless_skipped(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "w.jsonl", WIKI2)
    with pytest.raises(DatasetError, match=r"w\.jsonl:2: row has no 'context'.*skip_rows_without_context"):
        load_dataset("2wikimultihopqa", path)
    ds = load_dataset("2wikimultihopqa", path, skip_rows_without_context=True)
    assert [q.qid for q in ds.questions] == ["w1", "w3"] and ds.questions[0].qtype == "compositional"
    assert ds.passages["Film"].text == "A film. By Bergman." and list(ds.passages) == ["Film", "Bergman", "B"]
    assert ds.questions[1].own_doc_ids == ("B", "Film") and ds.questions[1].supporting_doc_ids == ("B",)
    assert len(load_dataset("2wikimultihopqa", path, limit=2, skip_rows_without_context=True).questions) == 2


# --- SQuAD 2.0 ------------------------------------------------------------------------------------------

def squad(qas_second: list[dict]) -> dict:
    return {"version": "v2.0", "data": [{"title": "Normans", "paragraphs": [
        {"context": "The Normans lived in Normandy.", "qas": [
            {"id": "s1", "question": "Where?", "is_impossible": False,
             "answers": [{"text": "Normandy", "answer_start": 21}, {"text": "Normandy", "answer_start": 21},
                         {"text": "in Normandy", "answer_start": 18}]},
            {"id": "s2", "question": "When?", "is_impossible": True, "answers": [],
             "plausible_answers": [{"text": "Normans", "answer_start": 4}]}]},
        {"context": "Second paragraph.", "qas": qas_second}]}]}


def test_squad2_answers_unanswerable_and_limit(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(squad([{"id": "s3", "question": "What?", "answers": [{"text": "Second"}]}])))
    ds = load_dataset("squad2", path)
    s1, s2, s3 = ds.questions
    assert s1.answers == ("Normandy", "in Normandy") and s1.supporting_doc_ids == ("Normans#0",)
    assert (s2.answerable, s2.answers, s2.supporting_doc_ids, s2.own_doc_ids) == (False, (), (), ("Normans#0",))
    assert s3.answerable and s3.supporting_doc_ids == ("Normans#1",)
    assert ds.passages["Normans#1"].title == "Normans" and ds.passages["Normans#1"].text == "Second paragraph."
    assert list(load_dataset("squad2", path, limit=2).passages) == ["Normans#0"]


def test_squad2_answerable_question_without_answers_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    bad = {"id": "bad", "question": "?", "is_impossible": False, "answers": []}
    path.write_text(json.dumps(squad([bad]), indent=1))
    lines = path.read_text().split("\n")
    opening = max(n for n in range(line_of(path, '"id": "bad"')) if lines[n - 1].strip() == "{")
    with pytest.raises(DatasetError, match=rf"s\.json:{opening}: answerable question"):
        load_dataset("squad2", path)


# --- Contoso --------------------------------------------------------------------------------------------

def contoso_folder(tmp_path: Path, truths: list[str], extra_page: dict | None = None) -> Path:
    folder = tmp_path / "contoso"
    folder.mkdir(parents=True)
    pages = [{"doc": "benefits.pdf", "page": 1, "text": "Plan A."},
             {"doc": "benefits.pdf", "page": 2, "text": "Plan B."},
             {"doc": "handbook.pdf", "page": 1, "text": "Salaries."}]
    write_jsonl(folder / "pages.jsonl", pages + ([extra_page] if extra_page else []))
    write_jsonl(folder / "ground_truth.jsonl", [{"question": f"C{i}?", "truth": t} for i, t in enumerate(truths)])
    acls = {"files": {"benefits.pdf": {"directory": "benefitinfo"}, "handbook.pdf": {"directory": "employeeinfo"}},
            "directories": {"employeeinfo": {"groups": ["HR"]}, "benefitinfo": {"groups": ["Emp", "HR"]},
                            "/": {"groups": ["Admin"]}},
            "groups": ["Admin", "HR", "Emp"]}
    (folder / "sampleacls.json").write_text(json.dumps(acls, indent=2))
    return folder


TRUTHS = ["Plan B costs less. [benefits.pdf#page=2]", "Salaries are secret. [handbook.pdf#page=1]",
          "Both. [benefits.pdf#page=1] [handbook.pdf#page=1]"]
GROUPS = {"employee_group": "Emp", "hr_group": "HR"}


def test_contoso_acls_directory_and_forbidden_citations(tmp_path: Path) -> None:
    folder = contoso_folder(tmp_path, TRUTHS)
    ds = load_dataset("contoso", folder, user="employee", **GROUPS)
    assert ds.directory == {"employee": ["Emp"], "hr": ["HR"]} and len(ds.passages) == 3
    assert ds.passages["benefits.pdf#page=2"].acl == ("Admin", "Emp", "HR")
    assert ds.passages["handbook.pdf#page=1"].acl == ("Admin", "HR")  # root "/" applies to every file
    assert ds.passages["handbook.pdf#page=1"].page == 1 and ds.passages["handbook.pdf#page=1"].title == "handbook.pdf"
    q1, q2, q3 = ds.questions
    assert (q1.qid, q1.user, q1.answers) == ("contoso-001", "employee", ("Plan B costs less.",))
    assert q1.answerable and q1.forbidden_doc_ids == ()
    assert (q2.answerable, q2.answers, q2.forbidden_doc_ids) == (False, (), ("handbook.pdf#page=1",))
    assert q3.answerable and q3.forbidden_doc_ids == ("handbook.pdf#page=1",) and q3.qtype == "multi-page"
    assert q3.supporting_doc_ids == ("benefits.pdf#page=1", "handbook.pdf#page=1")
    hr = load_dataset("contoso", folder, user="hr", **GROUPS)
    assert all(q.answerable and not q.forbidden_doc_ids and q.user == "hr" for q in hr.questions)
    limited = load_dataset("contoso", folder, limit=1, **GROUPS)
    assert len(limited.questions) == 1 and len(limited.passages) == 3  # the corpus is shared, not per question


def test_contoso_fails_closed(tmp_path: Path) -> None:
    folder = contoso_folder(tmp_path, TRUTHS, extra_page={"doc": "secret.pdf", "page": 1, "text": "?"})
    with pytest.raises(DatasetError, match=r"pages\.jsonl:4: document 'secret\.pdf' has no entry in sampleacls"):
        load_dataset("contoso", folder, **GROUPS)
    uncited = contoso_folder(tmp_path / "b", ["x [benefits.pdf#page=1]", "No citation here."])
    with pytest.raises(DatasetError, match=r"ground_truth\.jsonl:2: the truth cites no page"):
        load_dataset("contoso", uncited, **GROUPS)
    folder = contoso_folder(tmp_path / "c", ["x [benefits.pdf#page=1]", "x [benefits.pdf#page=9]"])
    with pytest.raises(DatasetError, match=r"ground_truth\.jsonl:2: cites \['benefits\.pdf#page=9'\]"):
        load_dataset("contoso", folder, **GROUPS)
    with pytest.raises(ValueError, match=r"unknown user 'ceo'"):
        load_dataset("contoso", folder, user="ceo", **GROUPS)
    with pytest.raises(ValueError, match=r"no group 'GPTKB_EmployeeTest'"):
        load_dataset("contoso", folder)
    with pytest.raises(ValueError, match=r"expected a folder holding pages\.jsonl"):
        load_dataset("contoso", folder / "pages.jsonl")
    acls = folder / "sampleacls.json"
    acls.write_text(acls.read_text().replace('"directory": "employeeinfo"', '"directory": "nowhere"'))
    with pytest.raises(DatasetError, match=rf"sampleacls\.json:{line_of(acls, 'handbook.pdf')}: .*'nowhere'"):
        load_dataset("contoso", folder, **GROUPS)


# --- SEC 10-Q -------------------------------------------------------------------------------------------

SEC_CSV = (
    "\ufeffQuestion,Source Docs,Question Type,Source Chunk Type,Answer\n"
    '"How did AAA sales change?",*AAA*,Multi-Doc RAG,Table,"Up.\n\nSOURCE(S): 2023 Q2 AAA.pdf"\n'
    "What about BBB?,*2023 Q1 BBB*,Single-Doc Single-Chunk RAG,Text,Flat.\n"
    "And AAA vs BBB?,*AAA*,Multi-Doc RAG,Text,Per 2023 Q1 BBB.pdf it rose.\n"
)


def sec_folder(tmp_path: Path, csv_text: str) -> Path:
    folder = tmp_path / "sec10q"
    folder.mkdir()
    write_jsonl(folder / "pages.jsonl", [
        {"doc": "2023 Q1 AAA.pdf", "page": 1, "text": "a1"}, {"doc": "2023 Q1 AAA.pdf", "page": 2, "text": ""},
        {"doc": "2023 Q2 AAA.pdf", "page": 1, "text": "a2"}, {"doc": "2023 Q1 BBB.pdf", "page": 1, "text": "b"}])
    (folder / "qna_data.csv").write_text(csv_text, encoding="utf-8")
    return folder


def test_sec10q_supporting_documents_from_answer_sources_within_the_glob(tmp_path: Path) -> None:
    ds = load_dataset("sec10q", sec_folder(tmp_path, SEC_CSV))
    assert len(ds.passages) == 4 and ds.passages["2023 Q1 AAA.pdf#page=2"].text == ""
    q1, q2, q3 = ds.questions
    assert (q1.qid, q1.answers, q1.qtype) == ("sec10q-001", ("Up.",), "Multi-Doc RAG")
    assert q1.supporting_doc_ids == ("2023 Q2 AAA.pdf#page=1",)  # named by the answer, inside the glob
    assert q2.supporting_doc_ids == ("2023 Q1 BBB.pdf#page=1",)  # the glob alone
    # The answer names a document outside the glob: fall back to the glob's documents, every page.
    assert q3.supporting_doc_ids == ("2023 Q1 AAA.pdf#page=1", "2023 Q1 AAA.pdf#page=2", "2023 Q2 AAA.pdf#page=1")
    assert len(load_dataset("sec10q", ds.path, limit=2).questions) == 2


def test_sec10q_unmatched_glob_names_the_record_line_after_a_multiline_answer(tmp_path: Path) -> None:
    folder = sec_folder(tmp_path, SEC_CSV + "Lost?,*ZZZ*,Multi-Doc RAG,Text,No.\n")
    with pytest.raises(DatasetError, match=r"qna_data\.csv:7: 'Source Docs' '\*ZZZ\*' matches no document"):
        load_dataset("sec10q", folder)


# --- load_dataset ---------------------------------------------------------------------------------------

def test_load_dataset_rejects_unknown_names_options_and_limits(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "d.jsonl", HOTPOT)
    with pytest.raises(ValueError, match=r"unknown dataset 'natural_questions'; known datasets: hotpotqa, musique, "
                                         r"2wikimultihopqa, squad2, contoso, sec10q"):
        load_dataset("natural_questions", path)
    with pytest.raises(ValueError, match=r"hotpotqa does not take option\(s\) \['user'\]"):
        load_dataset("hotpotqa", path, user="hr")
    with pytest.raises(ValueError, match=r"limit must be None or a non-negative integer"):
        load_dataset("hotpotqa", path, limit=-1)
    assert set(DATASETS) == {"hotpotqa", "musique", "2wikimultihopqa", "squad2", "contoso", "sec10q"}
