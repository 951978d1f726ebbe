"""SQuAD 2.0 (`data[].paragraphs[].qas[]`): single-hop questions, some impossible to answer from the text.

A passage is one paragraph, doc id `f"{article_title}#{i}"` with `i` the paragraph's 0-based index in its
article. Answers are the distinct answer texts (plausible answers of impossible questions are not answers).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from boundloop.evals.datasets.model import OPEN_ACL, EvalDataset, EvalPassage, EvalQuestion, open_directory
from boundloop.evals.datasets.readers import read_json_object
from boundloop.evals.datasets.row import Row
from boundloop.evals.datasets.wiki_paragraphs import distinct

NAME = "squad2"
QTYPE = "single-hop"
"""SQuAD has no question types of its own."""


def load(path: Path, limit: int | None) -> EvalDataset:
    """The first `limit` questions of a SQuAD 2.0 JSON file and the paragraphs they are asked about."""
    passages: dict[str, EvalPassage] = {}
    questions = []
    for question, passage in islice(_questions(read_json_object(path)), limit):
        passages.setdefault(passage.doc_id, passage)
        questions.append(question)
    return EvalDataset(NAME, str(path), questions, passages, open_directory())


def _questions(root: Row) -> Iterator[tuple[EvalQuestion, EvalPassage]]:
    titles: set[str] = set()
    for article in root.rows("data"):
        title = article.text("title")
        if title in titles:
            raise article.error(f"article title {title!r} repeats an earlier article; paragraph ids would clash")
        titles.add(title)
        for i, paragraph in enumerate(article.rows("paragraphs")):
            passage = EvalPassage(f"{title}#{i}", title, paragraph.text("context"), OPEN_ACL)
            for qa in paragraph.rows("qas"):
                yield _question(qa, passage.doc_id), passage


def _question(qa: Row, doc_id: str) -> EvalQuestion:
    answerable = not qa.flag("is_impossible", False)
    answers = distinct(answer.text("text") for answer in qa.rows("answers")) if answerable else ()
    if answerable and not answers:
        raise qa.error("answerable question (is_impossible false) without answers")
    return EvalQuestion(
        qid=qa.text("id"),
        question=qa.text("question"),
        answers=answers,
        answerable=answerable,
        qtype=QTYPE,
        supporting_doc_ids=(doc_id,) if answerable else (),
        own_doc_ids=(doc_id,),
    )
