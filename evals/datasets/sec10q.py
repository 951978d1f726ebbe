"""SEC 10-Q filings (docugami KG-RAG): `pages.jsonl` pages and `qna_data.csv` questions.

The CSV names sources only at document level: `Source Docs` is a glob over file names (`*AAPL*`,
`*2023 Q3 NVDA*`) and most answers end with `SOURCE(S): 2023 Q3 AAPL.pdf, ...`. The supporting documents
are the ones the answer names inside the glob, or the whole glob when the answer names none; the supporting
doc ids are every page of those documents. Score retrieval by document (a hit on any supporting page), not
by page recall. The trailing `SOURCE(S):` line is cut from the gold answer.
"""

from __future__ import annotations

import fnmatch
import re
from itertools import islice
from pathlib import Path

from boundloop.evals.datasets.model import OPEN_ACL, EvalDataset, EvalQuestion, open_directory
from boundloop.evals.datasets.pages import pages_by_document, read_pages
from boundloop.evals.datasets.readers import read_csv_rows, require_folder
from boundloop.evals.datasets.row import Row

NAME = "sec10q"
PAGES, QUESTIONS = "pages.jsonl", "qna_data.csv"
_SOURCES_LINE = re.compile(r"\s*SOURCE\(S\):[^\n]*\s*\Z")


def load(path: Path, limit: int | None) -> EvalDataset:
    """All pages, and the first `limit` questions of `qna_data.csv`."""
    folder = require_folder(path, PAGES, QUESTIONS)
    passages = read_pages(folder / PAGES, lambda row, doc: OPEN_ACL)
    pages = pages_by_document(passages)
    rows = islice(read_csv_rows(folder / QUESTIONS), limit)
    questions = [_question(row, n, pages) for n, row in enumerate(rows, start=1)]
    return EvalDataset(NAME, str(path), questions, passages, open_directory())


def _question(row: Row, number: int, pages: dict[str, list[str]]) -> EvalQuestion:
    answer = row.text("Answer")
    documents = _supporting_documents(row, answer, sorted(pages))
    return EvalQuestion(
        qid=f"{NAME}-{number:03d}",
        question=row.text("Question"),
        answers=(_SOURCES_LINE.sub("", answer).strip(),),
        answerable=True,
        qtype=str(row.data.get("Question Type") or "").strip(),
        supporting_doc_ids=tuple(doc_id for doc in documents for doc_id in pages[doc]),
        own_doc_ids=(),
    )


def _supporting_documents(row: Row, answer: str, documents: list[str]) -> list[str]:
    named = sorted((doc for doc in documents if doc in answer), key=answer.index)
    pattern = str(row.data.get("Source Docs") or "").strip()
    if not pattern:
        if not named:
            raise row.error("no 'Source Docs' glob and the answer names no document of pages.jsonl")
        return named
    scope = [doc for doc in documents if fnmatch.fnmatchcase(doc, pattern)]
    if not scope:
        raise row.error(f"'Source Docs' {pattern!r} matches no document of pages.jsonl")
    return [doc for doc in named if doc in scope] or scope
