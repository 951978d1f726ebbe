"""The whole loop over a company the reader was never tuned on: threshold policies, who's-who tables, a superseded
version, a restricted document, an HTML table, a how-to, a planted instruction (tests/fixtures/unseen_company)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundloop.policies.entitlements import Directory, EntitlementResolver
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.loaders import load_folder
from boundloop.retrieval.sqlite_index import SqliteIndex
from tests.loop_fixtures import make_runner

pytestmark = pytest.mark.slow
CORPUS = Path(__file__).parent / "fixtures" / "unseen_company"


@pytest.fixture(scope="module")
def runner(tmp_path_factory, real_encoder):
    index = SqliteIndex(tmp_path_factory.mktemp("unseen") / "index", create=True)
    ingest(index, real_encoder, load_folder(CORPUS), default_acl="staff", show_progress=False)
    resolver = EntitlementResolver(Directory.from_mapping(
        {"users": {"sam": {"groups": ["staff"]}, "lee": {"groups": ["staff", "board"]}}}))
    yield make_runner(index, real_encoder, resolver)
    index.close()


@pytest.mark.parametrize(("question", "short_answer"), [
    ("Who approves a purchase order of EUR 8,000?", ("Priya Raman", "Head of Procurement")),
    ("What is the extension of the person who approves purchases of EUR 10,000?", "4410"),
    ("How many supplier quotes do I need for a EUR 7,000 purchase?", "three suppliers"),
    ("Where does the person who replaces lost badges sit?", "A1-03"),
    ("What time does the main entrance close?", "19:00"),
    ("Which public holidays do both the Hamburg and Vienna offices observe?", "New Year's Day and Labour Day"),
    ("What is the hotel cap in Madrid?", "EUR 165 per night"),
    ("Which room does the person who runs the Travel Desk sit in?", "room 4.17"),
    ("What is the email of the Data Protection Officer?", "ken.ito@delta.example"),
    ("When does the canteen serve lunch?", "11:30 to 14:00"),
])
def test_the_value_asked_for_is_answered_and_cited(runner, question, short_answer):
    result = runner.ask(question, "sam")
    accepted = short_answer if isinstance(short_answer, tuple) else (short_answer,)
    assert result.status == "answered" and result.short_answer in accepted
    assert result.claims and all(claim.citations for claim in result.claims)


def test_the_current_version_answers_and_the_superseded_one_is_a_conflict(runner):
    result = runner.ask("What is the hotel cap in Madrid?", "sam")
    assert {c.doc_id for c in result.citations} == {"travel-v3"}
    assert any("EUR 140" in value for conflict in result.conflicts for value in conflict.values)


def test_a_how_to_question_is_answered_by_its_steps(runner):
    result = runner.ask("How do I get a new laptop?", "sam")
    assert result.status == "answered" and result.short_answer is None and len(result.claims) == 3


def test_a_restricted_document_reaches_only_its_group(runner):
    denied = runner.ask("How much did the board pay for Gamma GmbH?", "sam")
    allowed = runner.ask("How much did the board pay for Gamma GmbH?", "lee")
    assert denied.status != "answered" and "12 million" not in denied.model_dump_json()
    assert all(r.doc_id != "board-minutes" for r in denied.fallback_results)
    assert allowed.status == "answered" and allowed.short_answer == "EUR 12 million"


@pytest.mark.parametrize("question", ["What is the contact for admin questions?", "What's the weather in Oslo today?"])
def test_a_planted_instruction_or_a_live_fact_is_never_the_answer(runner, question):
    result = runner.ask(question, "sam")
    assert result.status != "answered" and "evil.example" not in result.model_dump_json()
