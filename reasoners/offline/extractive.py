"""Offline synthesis: read the evidence for the unit (or chain of units) that answers the question, render it as
claims, and extract the short answer. Claims are the evidence's own sentences, cleaned, so each is grounded in the
chunk it cites."""

from __future__ import annotations

from graph.models import Assessment, Claim, Draft, Evidence, Understanding
from reasoners.offline.answer_types import Expected, expected_answer
from reasoners.offline.chains import Chain, chains
from reasoners.offline.reading import Reading, read, term_weights
from reasoners.offline.render import render
from reasoners.offline.units import Unit, units_of

MAX_EVIDENCE = 12
MIN_COVERAGE = 0.45
"""A unit (or chain) must cover this much of the question (by weight, context at half) to answer it."""


def evidence_units(evidence: list[Evidence]) -> tuple[list[Unit], dict[str, int]]:
    """The units of the best evidence, and each chunk's rank."""
    ranked = sorted(evidence, key=lambda e: -e.score)[:MAX_EVIDENCE]
    return [u for e in ranked for u in units_of(e)], {e.chunk_id: i for i, e in enumerate(ranked)}


def answers(chain: Chain, expected: Expected) -> bool:
    """Whether a chain answers the question: enough of it is covered, and a value is found when one is asked."""
    if chain.coverage < MIN_COVERAGE:
        return False
    return chain.answer is not None or not expected.wants_value or expected.kind in ("other", "yes_no", "list")


def best_chains(question: str, understanding: Understanding, evidence: list[Evidence]
                ) -> tuple[Expected, list[Chain]]:
    """The expected answer and every candidate chain over the evidence, best first."""
    expected = expected_answer(question, understanding.query_class)
    units, rank_of = evidence_units(evidence)
    weights = term_weights(question, units)
    readings: list[Reading] = read(question, expected, units, rank_of, weights)
    return expected, chains(readings, question, weights)


def _claim(reading: Reading, question: str) -> Claim:
    return Claim(text=render(reading.unit, question), citations=[reading.unit.evidence.chunk_id])


def synthesise(question: str, understanding: Understanding, evidence: list[Evidence],
               assessment: Assessment | None) -> Draft:
    """The claims that answer the question, in reading order, and the short answer; none when nothing answers."""
    expected, found = best_chains(question, understanding, evidence)
    if not found or not answers(found[0], expected):
        return Draft()
    best = found[0]
    return Draft(claims=[_claim(r, question) for r in best.readings],
                 short_answer=best.answer if expected.wants_value else None)
