"""Evaluate's check of a list across sibling documents: which siblings to search for before answering.

'The postcodes of all our offices' reads the field from every site guide; a guide held whose passages do not give it
('Caddon Marsh — Site Guide' held by its opening chunk, the first aider two chunks on) is searched for by its title
and the field's words, and the guides not held at all by the words their file names share ('site guide'), once
each. When every sibling held gives its value and both searches ran, nothing is left to look for: the run stops
rather than follow names the passages mention.
"""

from __future__ import annotations

from typing import NamedTuple

from boundloop.domain.models import Evidence, Gap, SubQuery, Understanding
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.drafting import NOT_LISTED, each_document_readings
from boundloop.reasoners.offline.siblings import field_terms, single_question

SIBLINGS_PURPOSE = "the rest of"
"""The purpose of a search for one sibling (planning's `refine` runs it as it runs the rest of a list)."""


class SiblingCheck(NamedTuple):
    """Whether the question is read across siblings, and the sibling searches left to run (None: none left)."""

    across: bool
    gap: Gap | None = None


def sibling_check(question: str, understanding: Understanding, subqueries: list[SubQuery],
                  evidence: list[Evidence]) -> SiblingCheck:
    """The siblings to search for next, for a field asked of every member of a family that two members give."""
    single = single_question(question)
    if single is None or expected_answer(question, understanding.query_class).kind in NOT_LISTED:
        return SiblingCheck(False)
    items = each_document_readings(question, single, evidence)
    if not items.readings:
        return SiblingCheck(False)
    searched = {q.purpose.removeprefix(SIBLINGS_PURPOSE).strip() for q in subqueries
                if q.purpose.startswith(SIBLINGS_PURPOSE)}
    pending = [t for t in [items.filed, *items.without] if t and t not in searched]
    if not pending:
        return SiblingCheck(True)
    return SiblingCheck(True, Gap(kind="unfinished_list", terms=field_terms(question).split(),
                                  bridge_entities=pending,
                                  description=f"the field is not read yet from: {', '.join(pending)}"))
