"""MuSiQue (Ans or Full): `paragraphs [{idx, title, paragraph_text, is_supporting}]`, answers and answerability.

A passage is one paragraph. MuSiQue reuses a title for different paragraphs, so the doc id is the title when
the whole file has one text under it, and `title#<8 hex of sha1(text)>` otherwise; ids are decided over the
whole file, so `limit` does not change them.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from itertools import islice
from pathlib import Path

from boundloop.evals.datasets.model import OPEN_ACL, EvalDataset, EvalPassage, EvalQuestion, open_directory
from boundloop.evals.datasets.readers import read_json_rows
from boundloop.evals.datasets.row import Row
from boundloop.evals.datasets.wiki_paragraphs import distinct

NAME = "musique"

_Paragraph = tuple[str, str, bool]
"""Title, text and whether it supports the answer."""


def load(path: Path, limit: int | None) -> EvalDataset:
    """The first `limit` questions of a MuSiQue JSONL file and their paragraphs."""
    rows = [(row, _paragraphs(row)) for row in read_json_rows(path)]
    texts: dict[str, set[str]] = defaultdict(set)
    for _, paragraphs in rows:
        for title, text, _ in paragraphs:
            texts[title].add(text)

    def doc_id(title: str, text: str) -> str:
        if len(texts[title]) == 1:
            return title
        return f"{title}#{hashlib.sha1(text.encode('utf-8')).hexdigest()[:8]}"

    passages: dict[str, EvalPassage] = {}
    questions = []
    for row, paragraphs in islice(rows, limit):
        ids = [doc_id(title, text) for title, text, _ in paragraphs]
        for (title, text, _), pid in zip(paragraphs, ids, strict=True):
            passages.setdefault(pid, EvalPassage(pid, title, text, OPEN_ACL))
        supporting = [pid for (_, _, gold), pid in zip(paragraphs, ids, strict=True) if gold]
        questions.append(_question(row, distinct(supporting), distinct(ids)))
    return EvalDataset(NAME, str(path), questions, passages, open_directory())


def _paragraphs(row: Row) -> list[_Paragraph]:
    return [
        (paragraph.text("title"), paragraph.text("paragraph_text"), paragraph.flag("is_supporting"))
        for paragraph in row.rows("paragraphs")
    ]


def _question(row: Row, supporting: tuple[str, ...], own: tuple[str, ...]) -> EvalQuestion:
    qid = row.text("id")
    answerable = row.flag("answerable", True)
    answers: tuple[str, ...] = ()
    if answerable:
        answers = distinct([row.text("answer"), *row.strings("answer_aliases", [])])
    return EvalQuestion(
        qid=qid,
        question=row.text("question"),
        answers=answers,
        answerable=answerable,
        # MuSiQue ids start with the hop pattern: 2hop, 3hop1, 4hop3, ...
        qtype=qid.split("__", 1)[0] if "__" in qid else "",
        supporting_doc_ids=supporting,
        own_doc_ids=own,
    )
