"""The reader is a registry of named rules: each claim names the rule that read it, and no claim names the check.

`reading` in the result (`ask --json`) pairs each claim with its rule; the synthesise span says which rule
answered, or which check rejected the best candidate when none did, so a wrong answer can be diagnosed.
"""

from __future__ import annotations

import pytest

from boundloop.domain.models import Understanding
from boundloop.reasoners.offline.clauses import requested
from boundloop.reasoners.offline.extractive import CHAIN, EACH_DOCUMENT, IN_FORCE, IN_FULL, RULES, read_answer
from tests.loop_fixtures import make_runner
from tests.reader_fixtures import evidence


def test_rule_names_are_unique():
    names = [r.name for r in RULES] + [CHAIN, EACH_DOCUMENT, IN_FORCE, IN_FULL]
    assert len(names) == len(set(names))


def test_each_claim_names_its_rule():
    rota = evidence("rota", "IT on-call rota", "Week 12: Priya Nair, ext. 4410\nWeek 13: Tom Berg, ext. 4411")
    decision = read_answer("Who is on call in week 13?", Understanding(query_class="lookup"), [rota])
    assert decision.draft.claims and len(decision.rules) == len(decision.draft.claims)
    assert set(decision.rules) <= {r.name for r in RULES} | {CHAIN, EACH_DOCUMENT, IN_FORCE, IN_FULL}


def test_no_claim_names_the_check_that_rejected_the_best_candidate():
    menu = evidence("menu", "Canteen menu", "Monday: lentil soup. Tuesday: fish pie.")
    decision = read_answer("What is the VPN portal address?", Understanding(query_class="lookup"), [menu])
    assert not decision.draft.claims and decision.rules == ()
    check = decision.rejected.split(":", 1)[0]
    assert check in {"value_found", "names_stated", "coverage", "coverage_floor", "answerability", "no candidate"}


@pytest.mark.parametrize("question, asked", [
    ("can you remind me of the roof code?", "What is the roof code?"),
    ("Could you tell me who signs it?", "Who signs it?"),
    ("can you list the first aid contacts for all our sites", "List the first aid contacts for all our sites"),
    ("Can you tell me the address of the Leeds office?", "What is the address of the Leeds office?"),
    ("Do you know the wifi password?", "What is the wifi password?"),
    ("Hi, can you tell me when the canteen opens?", "When the canteen opens?"),
    # not requests: asked as they are
    ("Can you bring a guest to the party?", "Can you bring a guest to the party?"),
    ("Can I park here?", "Can I park here?"),
    ("do you know if the canteen is open?", "do you know if the canteen is open?"),
    ("Name the person who approves leave", "Name the person who approves leave"),
])
def test_a_request_asks_what_it_wraps(question, asked):
    assert requested(question) == asked


def test_ask_result_pairs_each_claim_with_its_rule_and_the_trace_names_it(index, encoder, resolver, tmp_path):
    runner = make_runner(index, encoder, resolver, tmp_path)
    result = runner.ask("Who is the Head of Finance?", "bob")
    assert result.status == "answered" and result.claims
    assert [r.claim for r in result.reading] == list(range(len(result.claims)))
    assert all(r.rule for r in result.reading)
    span = next(s for s in runner.trace(result.run_id) if s.node == "synthesise")
    assert span.reason.startswith("read by rule ") and result.reading[0].rule in span.reason
    assert "reading" in result.model_dump(mode="json")


def test_a_run_without_claims_says_why_in_the_trace(index, encoder, resolver, tmp_path):
    runner = make_runner(index, encoder, resolver, tmp_path)
    result = runner.ask("What colour is the lobby carpet in the Oslo office?", "bob")
    assert not result.claims and result.reading == []
    span = next(s for s in runner.trace(result.run_id) if s.node == "synthesise")
    assert "rejected by" in span.reason or span.reason == "no evidence"
