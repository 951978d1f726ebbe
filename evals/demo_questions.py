"""The bundled demo as an eval dataset: its corpus with ACLs, its directory, and `demo/questions.jsonl`.

Each question names who asks it. `expect: answered` makes it answerable; the access questions (with
`forbidden_doc_ids`) and the out-of-scope ones must not be answered. `answer_contains` becomes the gold answers,
so answer recall here means "contains at least one of the expected strings".
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from boundloop.evals.datasets import DatasetError, EvalDataset, EvalPassage, EvalQuestion
from boundloop.evals.datasets.readers import read_json_rows, require_folder
from boundloop.evals.datasets.row import Row
from boundloop.policies.entitlements import Directory
from boundloop.retrieval.documents import LoadProblem
from boundloop.retrieval.loaders import load_folder

NAME = "demo"
QUESTIONS, CORPUS, DIRECTORY = "questions.jsonl", "corpus", "directory.yaml"


def load(path: Path, limit: int | None) -> EvalDataset:
    """The first `limit` questions of a demo folder (questions.jsonl, corpus/, directory.yaml)."""
    folder = require_folder(path, QUESTIONS, DIRECTORY)
    passages: dict[str, EvalPassage] = {}
    for item in load_folder(folder / CORPUS):
        if isinstance(item, LoadProblem):
            raise DatasetError(f"{item.location}: {item.message}")
        passages[item.doc_id] = EvalPassage(item.doc_id, item.title, item.text, item.acl, source=item.source)
    directory = {user: sorted(entry.groups) for user, entry in Directory.load(folder / DIRECTORY).users.items()}
    questions = [_question(row, passages, directory) for row in islice(read_json_rows(folder / QUESTIONS), limit)]
    return EvalDataset(NAME, str(path), questions, passages, directory)


def _question(row: Row, passages: dict[str, EvalPassage], directory: dict[str, list[str]]) -> EvalQuestion:
    user = row.text("user")
    if user not in directory:
        raise row.error(f"user {user!r} is not in {DIRECTORY}")
    gold, forbidden = row.strings("gold_doc_ids", []), row.strings("forbidden_doc_ids", [])
    unknown = sorted(set(gold + forbidden) - set(passages))
    if unknown:
        raise row.error(f"names documents {unknown} that are not in {CORPUS}/")
    expect = row.text("expect")
    if expect not in ("answered", "abstained"):
        raise row.error(f"'expect' must be answered or abstained, got {expect!r}")
    return EvalQuestion(
        qid=row.text("id"),
        question=row.text("question"),
        answers=tuple(row.strings("answer_contains", [])),
        answerable=expect == "answered",
        qtype=row.text("class"),
        supporting_doc_ids=tuple(gold),
        own_doc_ids=(),
        user=user,
        forbidden_doc_ids=tuple(forbidden),
    )
