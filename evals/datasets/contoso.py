"""Contoso HR and benefits documents (Azure search demo): pages, cited ground truth and sample ACLs.

Folder layout: `pages.jsonl` (one passage per page, doc id `doc#page=N`), `ground_truth.jsonl`
(`question`, `truth` ending in citations like `[Northwind_Standard_Benefits_Details.pdf#page=7]`) and
`sampleacls.json`. Two users ask: `employee` (the employee group) and `hr` (the HR group). For the chosen user,
cited pages they may not read are `forbidden_doc_ids`; when every cited page is forbidden the question is
unanswerable for them and has no answers.
"""

from __future__ import annotations

import re
from itertools import islice
from pathlib import Path

from boundloop.evals.datasets.contoso_acls import document_acls
from boundloop.evals.datasets.errors import DatasetError
from boundloop.evals.datasets.model import EvalDataset, EvalPassage, EvalQuestion
from boundloop.evals.datasets.pages import page_doc_id, read_pages
from boundloop.evals.datasets.readers import read_json_object, read_json_rows, require_folder
from boundloop.evals.datasets.row import Row
from boundloop.evals.datasets.wiki_paragraphs import distinct

NAME = "contoso"
PAGES, GROUND_TRUTH, ACLS = "pages.jsonl", "ground_truth.jsonl", "sampleacls.json"
_CITATION = re.compile(r"\s*\[([^\[\]]+?)#page=(\d+)\]")


def load(
    path: Path,
    limit: int | None,
    *,
    user: str = "employee",
    employee_group: str = "GPTKB_EmployeeTest",
    hr_group: str = "GPTKB_HRTest",
) -> EvalDataset:
    """All pages, and the first `limit` ground-truth questions as asked by `user`."""
    folder = require_folder(path, PAGES, GROUND_TRUTH, ACLS)
    acls, groups = document_acls(read_json_object(folder / ACLS))
    directory = {"employee": [employee_group], "hr": [hr_group]}
    for group in (employee_group, hr_group):
        if group not in groups:
            raise DatasetError(f"{folder / ACLS}: no group {group!r}; it declares {sorted(groups)}")
    if user not in directory:
        raise DatasetError(f"{NAME}: unknown user {user!r}; choose one of {', '.join(directory)}")

    def acl_of(row: Row, doc: str) -> tuple[str, ...]:
        if doc not in acls:
            raise row.error(f"document {doc!r} has no entry in {ACLS}; refusing to guess its readers")
        return acls[doc]

    passages = read_pages(folder / PAGES, acl_of)
    visible = set(directory[user])
    rows = islice(read_json_rows(folder / GROUND_TRUTH), limit)
    questions = [_question(row, n, passages, user, visible) for n, row in enumerate(rows, start=1)]
    return EvalDataset(NAME, str(path), questions, passages, directory)


def _question(
    row: Row, number: int, passages: dict[str, EvalPassage], user: str, visible: set[str]
) -> EvalQuestion:
    truth = row.text("truth")
    cited = distinct(page_doc_id(doc, int(page)) for doc, page in _CITATION.findall(truth))
    if not cited:
        raise row.error("the truth cites no page like [document.pdf#page=N]")
    unknown = [doc_id for doc_id in cited if doc_id not in passages]
    if unknown:
        raise row.error(f"cites {unknown}, not pages of {PAGES}")
    forbidden = tuple(doc_id for doc_id in cited if not visible.intersection(passages[doc_id].acl))
    answerable = len(forbidden) < len(cited)
    return EvalQuestion(
        qid=f"{NAME}-{number:03d}",
        question=row.text("question"),
        answers=(_CITATION.sub("", truth).strip(),) if answerable else (),
        answerable=answerable,
        qtype="single-page" if len(cited) == 1 else "multi-page",
        supporting_doc_ids=cited,
        own_doc_ids=(),
        user=user,
        forbidden_doc_ids=forbidden,
    )
