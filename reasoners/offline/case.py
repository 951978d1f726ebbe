"""What the reader's named rules read and give back.

One question read against one run's evidence (`Case`), a named rule, and the decision: the draft, the rule behind
each claim, or why nothing answered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from boundloop.domain.models import Draft, Evidence, Understanding
from boundloop.domain.text import entities
from boundloop.reasoners.offline.answer_types import Expected
from boundloop.reasoners.offline.answerability import Similarity
from boundloop.reasoners.offline.drafting import MIN_COVERAGE, claim_of, draft_of, reading_of
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.tallies import asks_count
from boundloop.reasoners.offline.units import Unit


@dataclass(frozen=True)
class Case:
    """One question read against one run's evidence: what every rule looks at."""

    question: str
    """As read: instructions to the assistant out, acronyms spelled, names typed in lower case cased."""
    understanding: Understanding
    similarity: Similarity | None
    expected: Expected
    units: list[Unit]
    readings: list[Reading]
    weights: dict[str, float]

    @classmethod
    def read(cls, question: str, understanding: Understanding, evidence: list[Evidence],
             similarity: Similarity | None) -> Case:
        as_read, expected, units, readings, weights = reading_of(question, understanding, evidence)
        return cls(as_read, understanding, similarity, expected, units, readings, weights)

    @cached_property
    def relevant(self) -> list[Reading]:
        return [r for r in self.readings if r.coverage >= MIN_COVERAGE / 2]

    @cached_property
    def names(self) -> list[str]:
        return self.understanding.entities or entities(self.question, names_only=True)

    @cached_property
    def counting(self) -> bool:
        return self.expected.kind == "number" and asks_count(self.question)

    def draft(self, readings: list[Reading], short: str | None) -> Draft:
        return draft_of(self.question, readings, short)


@dataclass(frozen=True)
class Rule:
    """A named way of reading an answer: `answer` drafts claims, or returns None to pass to the next rule."""

    name: str
    answer: Callable[[Case], Draft | None]


@dataclass(frozen=True)
class Decision:
    """The draft, the rule behind each of its claims, and why nothing answered when no claim was drafted."""

    draft: Draft
    rules: tuple[str, ...] = ()
    rejected: str = ""
    note: str = ""
    """What else the trace should say of the reading ('in force: ... set aside ...'; a passage answer: why no value
    was extracted)."""


def named(draft: Draft, rule: str, others: list[tuple[Reading, str]], case: Case) -> Decision:
    """The draft with `rule` behind each claim, or another rule behind the claim of a reading in `others`."""
    by_text = {claim_of(r, case.question).text: name for r, name in others}
    return Decision(draft, tuple(by_text.get(c.text, rule) for c in draft.claims))
