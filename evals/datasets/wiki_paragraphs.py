"""Wikipedia paragraphs given as titled sentence lists (HotpotQA, 2WikiMultihopQA), pooled by title."""

from __future__ import annotations

from collections.abc import Iterable

from boundloop.evals.datasets.model import OPEN_ACL, EvalPassage, EvalQuestion
from boundloop.evals.datasets.row import Row

Paragraph = tuple[str, list[str]]
"""A paragraph's title and its sentences."""


def context_pairs(row: Row) -> list[Paragraph]:
    """`context` as `[[title, [sentence, ...]], ...]` (original HotpotQA, 2WikiMultihopQA)."""
    paragraphs = []
    for i, item in enumerate(row.items("context")):
        if not (isinstance(item, list) and len(item) == 2 and _is_title(item[0]) and _are_strings(item[1])):
            raise row.error(f"context[{i}] must be [title, [sentence, ...]]")
        paragraphs.append((item[0], item[1]))
    return paragraphs


def context_columns(row: Row) -> list[Paragraph]:
    """`context` as `{title: [...], sentences: [[...], ...]}` (Hugging Face HotpotQA)."""
    context = row.mapping("context")
    titles, sentences = context.items("title"), context.items("sentences")
    if len(titles) != len(sentences):
        raise row.error(f"context has {len(titles)} titles but {len(sentences)} sentence lists")
    if not all(_is_title(t) for t in titles) or not all(_are_strings(s) for s in sentences):
        raise row.error("context titles must be non-empty strings and sentences lists of strings")
    return list(zip(titles, sentences, strict=True))


def supporting_pairs(row: Row) -> list[str]:
    """Titles of `supporting_facts` given as `[[title, sent_id], ...]`."""
    titles = []
    for i, item in enumerate(row.items("supporting_facts")):
        if not (isinstance(item, list) and len(item) == 2 and _is_title(item[0])):
            raise row.error(f"supporting_facts[{i}] must be [title, sent_id]")
        titles.append(item[0])
    return titles


def supporting_columns(row: Row) -> list[str]:
    """Titles of `supporting_facts` given as `{title: [...], sent_id: [...]}`."""
    facts = row.mapping("supporting_facts")
    titles, sent_ids = facts.items("title"), facts.items("sent_id")
    if len(titles) != len(sent_ids) or not all(_is_title(t) for t in titles):
        raise row.error("supporting_facts needs as many sent_id as title entries, titles non-empty strings")
    return titles


def paragraph_question(
    row: Row,
    *,
    qid: str,
    answers: tuple[str, ...],
    qtype: str,
    paragraphs: list[Paragraph],
    supporting: list[str],
    passages: dict[str, EvalPassage],
    joiner: str,
) -> EvalQuestion:
    """The question of `row`; its paragraphs join `passages` by title, the first text seen for a title wins."""
    for title, sentences in paragraphs:
        if title not in passages:
            passages[title] = EvalPassage(title, title, joiner.join(sentences).strip(), OPEN_ACL)
    own = distinct(title for title, _ in paragraphs)
    missing = [title for title in distinct(supporting) if title not in own]
    if missing:
        raise row.error(f"supporting fact title(s) {missing} are not among the row's context titles")
    return EvalQuestion(
        qid=qid,
        question=row.text("question"),
        answers=answers,
        answerable=True,
        qtype=qtype,
        supporting_doc_ids=distinct(supporting),
        own_doc_ids=own,
    )


def distinct(values: Iterable[str]) -> tuple[str, ...]:
    """The values in first-seen order without repeats."""
    return tuple(dict.fromkeys(values))


def _is_title(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _are_strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)
