"""2WikiMultihopQA (`_id`, `type`, `context [[title, [sentences]]]`, `supporting_facts [[title, sent_id]]`).

Passages are pooled by title as for HotpotQA. Some published copies drop `context` from part of the rows
(our dev file lacks it on 20 of 100); such a row is an error unless `skip_rows_without_context=True`, since a
question whose gold paragraphs are nowhere in the corpus would be scored as a retrieval miss.
"""

from __future__ import annotations

from pathlib import Path

from boundloop.evals.datasets.model import EvalDataset, EvalPassage, EvalQuestion, open_directory
from boundloop.evals.datasets.readers import read_json_rows
from boundloop.evals.datasets.wiki_paragraphs import context_pairs, paragraph_question, supporting_pairs

NAME = "2wikimultihopqa"


def load(path: Path, limit: int | None, *, skip_rows_without_context: bool = False) -> EvalDataset:
    """The first `limit` questions that have paragraphs, and those paragraphs."""
    passages: dict[str, EvalPassage] = {}
    questions: list[EvalQuestion] = []
    for row in read_json_rows(path):
        if limit is not None and len(questions) >= limit:
            break
        if not row.has("context"):
            if skip_rows_without_context:
                continue
            raise row.error("row has no 'context' (pass skip_rows_without_context=True to leave such rows out)")
        questions.append(
            paragraph_question(
                row,
                qid=row.text("_id"),
                answers=(row.text("answer"),),
                qtype=row.text("type"),
                paragraphs=context_pairs(row),
                supporting=supporting_pairs(row),
                passages=passages,
                joiner=" ",
            )
        )
    return EvalDataset(NAME, str(path), questions, passages, open_directory())
