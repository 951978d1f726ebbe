"""The outcome rule's conflicts: only those about what the result shows, each once."""

from __future__ import annotations

from boundloop.domain.models import Conflict
from boundloop.policies.outcome import shown_conflicts

_THRESHOLDS = Conflict(topic="Purchases approved", values=["EUR 20000", "EUR 50000"],
                       chunk_ids=["purchasing-2026#0", "purchasing-2025#0"])
_ELSEWHERE = Conflict(topic="hotel cap", values=["EUR 140", "EUR 165"], chunk_ids=["travel-v3#0", "travel-v2#0"])


def test_an_answer_shows_the_conflicts_about_the_chunks_it_cites_once():
    again = _THRESHOLDS.model_copy(update={"chunk_ids": ["purchasing-2025#0", "purchasing-2026#0"]})
    assert shown_conflicts([_THRESHOLDS, _ELSEWHERE, again], {"purchasing-2026#0", "people#0"}) == [_THRESHOLDS]


def test_an_abstention_names_no_document_through_a_conflict():
    assert shown_conflicts([_THRESHOLDS, _ELSEWHERE], set()) == []


def test_a_settled_conflict_is_shown_in_place_of_an_unsettled_one_about_the_same_chunks():
    found = Conflict(topic="mileage", values=["45p", "49p"], chunk_ids=["policy#0", "email#0"])
    settled = Conflict(topic="mileage rate", values=["49p per mile", "45p per mile"], chunk_ids=["email#0", "policy#0"],
                       in_force="49p per mile", in_force_chunk_id="email#0", dates=["2025-04-01", "2023-04-01"],
                       reason="later")
    assert shown_conflicts([found, _ELSEWHERE, settled], {"email#0"}) == [settled]
    assert shown_conflicts([found], {"email#0"}) == [found]
