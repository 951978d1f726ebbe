"""The records every dataset loader returns: passages, questions and the dataset holding both."""

from __future__ import annotations

from dataclasses import dataclass

OPEN_ACL = ("all",)
"""The ACL of every passage in a dataset without access control."""

OPEN_USER = "eval"
"""The user who asks the questions of a dataset without access control."""


@dataclass(frozen=True)
class EvalPassage:
    """One retrievable unit: a Wikipedia paragraph, a SQuAD context or a page of a PDF."""

    doc_id: str
    """Unique within the dataset."""
    title: str
    text: str
    acl: tuple[str, ...]
    """Groups allowed to see the passage."""
    page: int | None = None
    """1-based page for passages cut from paginated documents."""
    source: str = ""
    """The document the passage comes from, when it is a page of one."""


@dataclass(frozen=True)
class EvalQuestion:
    """One question with its gold answers and gold passages."""

    qid: str
    question: str
    answers: tuple[str, ...]
    """Gold answer first, then aliases; empty when the question is unanswerable."""
    answerable: bool
    qtype: str
    """The dataset's own type (bridge, comparison, compositional, 2hop, ...)."""
    supporting_doc_ids: tuple[str, ...]
    """Gold passages (ids into `EvalDataset.passages`)."""
    own_doc_ids: tuple[str, ...]
    """The passages that came with this question (distractor setting); empty for a shared corpus."""
    user: str = OPEN_USER
    """Who asks the question (for datasets with access control)."""
    forbidden_doc_ids: tuple[str, ...] = ()
    """Gold passages this user must not see (for leak checks)."""


@dataclass
class EvalDataset:
    """Questions plus the pooled passages they are asked against, and the users' groups."""

    name: str
    path: str
    questions: list[EvalQuestion]
    passages: dict[str, EvalPassage]
    directory: dict[str, list[str]]
    """User -> groups; `{"eval": ["all"]}` for datasets without access control."""


def open_directory() -> dict[str, list[str]]:
    """The directory of a dataset without access control: one user who sees everything."""
    return {OPEN_USER: list(OPEN_ACL)}
