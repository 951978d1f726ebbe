"""The eval corpus: a dataset's passages as documents with ACLs, and who asks each question in each setting.

One index serves both settings. Every passage keeps the dataset's own ACL (the `pooled` setting asks as the
dataset's user, who sees the whole pool or, for Contoso, what their group may read). Each passage also gets a
group `q:<qid>` for every question it came with, as long as that question's user may read it; in the
`distractor` setting each question is asked by its own user `q:<qid>`, whose only group is `q:<qid>`, so the
entitlement filter inside the search trims the pool down to that question's own paragraphs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from boundloop.evals.datasets import EvalDataset, EvalQuestion
from boundloop.evals.leaks import AccessView
from boundloop.policies.entitlements import Directory, EntitlementResolver
from boundloop.policies.errors import BoundloopError
from boundloop.retrieval.documents import Document

Setting = Literal["pooled", "distractor"]
SETTINGS: tuple[Setting, ...] = ("pooled", "distractor")


def question_user(qid: str) -> str:
    """The user (and group) that stands for one question in the distractor setting."""
    return f"q:{qid}"


@dataclass(frozen=True)
class EvalCorpus:
    """Documents to index, the ACL view the leak checks use, and the directory the runs resolve users from."""

    documents: list[Document]
    view: AccessView

    @classmethod
    def of(cls, dataset: EvalDataset) -> EvalCorpus:
        groups = {user: frozenset(names) for user, names in dataset.directory.items()}
        acls: dict[str, set[str]] = {doc_id: set(p.acl) for doc_id, p in dataset.passages.items()}
        owners: dict[str, set[str]] = defaultdict(set)
        for question in dataset.questions:
            if not question.own_doc_ids:
                continue
            user = question_user(question.qid)
            groups[user] = frozenset({user})
            asker = groups.get(question.user, frozenset())
            for doc_id in question.own_doc_ids:
                if asker & acls[doc_id]:
                    owners[doc_id].add(user)
        for doc_id, extra in owners.items():
            acls[doc_id] |= extra
        documents = [
            Document(p.doc_id, p.title, p.text, tuple(sorted(acls[p.doc_id])), source=p.source or dataset.name)
            for p in dataset.passages.values()
        ]
        return cls(documents, AccessView({d: frozenset(a) for d, a in acls.items()}, groups))

    @property
    def texts(self) -> dict[str, str]:
        return {d.doc_id: d.text for d in self.documents}

    def resolver(self) -> EntitlementResolver:
        users = {user: {"groups": sorted(names)} for user, names in self.view.groups.items()}
        return EntitlementResolver(Directory.from_mapping({"users": users}, source="<eval corpus>"))


def asking_user(question: EvalQuestion, setting: Setting) -> str:
    """Who asks `question` in `setting`; the distractor setting needs the question's own paragraphs."""
    if setting == "pooled":
        return question.user
    if not question.own_doc_ids:
        raise BoundloopError(
            f"question {question.qid} has no paragraphs of its own, so the distractor setting does not apply; "
            "use --setting pooled"
        )
    return question_user(question.qid)
