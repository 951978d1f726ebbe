"""Per-page text of a PDF collection (`pages.jsonl`: `doc`, `page`, `text`), one passage per page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from boundloop.evals.datasets.model import EvalPassage
from boundloop.evals.datasets.readers import read_json_rows
from boundloop.evals.datasets.row import Row

AclLookup = Callable[[Row, str], tuple[str, ...]]
"""Gives the ACL of a document (by name); raises at the row when the document has none."""


def page_doc_id(doc: str, page: int) -> str:
    """The doc id of one page, in the citation form `Benefit_Options.pdf#page=3`."""
    return f"{doc}#page={page}"


def read_pages(path: Path, acl_of: AclLookup) -> dict[str, EvalPassage]:
    """Every page of `path` as a passage titled with its document; blank pages are kept."""
    passages: dict[str, EvalPassage] = {}
    for row in read_json_rows(path):
        doc, page = row.text("doc"), row.integer("page")
        if page < 1:
            raise row.error(f"page numbers start at 1, got {page}")
        doc_id = page_doc_id(doc, page)
        if doc_id in passages:
            raise row.error(f"{doc_id} appears twice")
        passages[doc_id] = EvalPassage(
            doc_id, doc, row.text("text", allow_empty=True), acl_of(row, doc), page=page, source=doc
        )
    return passages


def pages_by_document(passages: dict[str, EvalPassage]) -> dict[str, list[str]]:
    """Document name -> its page doc ids, in file order."""
    pages: dict[str, list[str]] = {}
    for passage in passages.values():
        pages.setdefault(passage.title, []).append(passage.doc_id)
    return pages
