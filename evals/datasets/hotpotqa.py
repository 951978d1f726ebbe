"""HotpotQA (distractor setting) in the Hugging Face JSONL layout or the original JSON-array layout.

A passage is one paragraph, its doc id the Wikipedia title: paragraphs sharing a title across questions are
the same paragraph, so the first one read is kept. The supporting docs are the titles in `supporting_facts`.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from boundloop.evals.datasets.model import EvalDataset, EvalPassage, EvalQuestion, open_directory
from boundloop.evals.datasets.readers import read_json_rows
from boundloop.evals.datasets.row import Row
from boundloop.evals.datasets.wiki_paragraphs import (
    context_columns,
    context_pairs,
    paragraph_question,
    supporting_columns,
    supporting_pairs,
)

NAME = "hotpotqa"


def load(path: Path, limit: int | None) -> EvalDataset:
    """The first `limit` questions of a HotpotQA file (either layout, row by row) and their paragraphs."""
    passages: dict[str, EvalPassage] = {}
    questions = [_question(row, passages) for row in islice(read_json_rows(path), limit)]
    return EvalDataset(NAME, str(path), questions, passages, open_directory())


def _question(row: Row, passages: dict[str, EvalPassage]) -> EvalQuestion:
    hugging_face = isinstance(row.data.get("context"), dict)
    return paragraph_question(
        row,
        qid=row.text("id") if row.has("id") else row.text("_id"),
        answers=(row.text("answer"),),
        qtype=row.text("type"),
        paragraphs=context_columns(row) if hugging_face else context_pairs(row),
        supporting=supporting_columns(row) if hugging_face else supporting_pairs(row),
        passages=passages,
        # HotpotQA sentences keep their leading space, so they concatenate back into the paragraph.
        joiner="",
    )
