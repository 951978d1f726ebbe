"""The pure rules around the model's output, and how failures are named in the trace."""

from __future__ import annotations

import json

import httpx
import openai
import pytest
from pydantic import ValidationError

from boundloop.domain.models import Draft, Understanding
from boundloop.reasoners.llm import decisions, failures, quoting
from boundloop.reasoners.llm.deadline import DeadlineExceeded
from boundloop.reasoners.llm.schemas import ClaimCheck, Judgement, QuestionUnderstanding, Search, SearchPlan
from tests.llm.fakes import EXPENSE, REQUEST, verdict


def test_markers_are_stripped_only_when_they_are_numbers_or_shown_ids():
    draft = Draft.model_validate({"claims": [{"text": "Rule [2] applies [expense#0] to [all staff].",
                                              "citations": ["expense#0"]}]})
    kept, removed = decisions.cited_draft(draft, {"expense#0"})
    assert kept.claims[0].text == "Rule applies to [all staff]." and removed == 0


def test_plan_keeps_the_models_modes_and_keeps_k_in_bounds():
    plan = SearchPlan(searches=[Search(text=" Concur  filing ", mode="keyword", purpose="p", k=3),
                                Search(text="receipts", mode="vector", purpose="p", k=500)])
    first, second = decisions.normalise_plan(plan).subqueries
    assert (first.id, first.text, first.mode, first.k) == ("q0", "Concur filing", "keyword", 3)
    assert (second.id, second.mode, second.k) == ("q1", "vector", 20)


@pytest.mark.parametrize("schema", [QuestionUnderstanding, SearchPlan, Draft, Judgement])
def test_output_schemas_are_valid_strict_schemas_without_defaults(schema):
    """Strict structured outputs reject `default` (Azure OpenAI refuses the whole request)."""
    strict = json.dumps(openai.pydantic_function_tool(schema)["function"]["parameters"])
    assert '"default"' not in strict and '"minimum"' not in strict and '"maximum"' not in strict


def test_a_judgement_without_checks_changes_nothing():
    verdicts = [verdict("A.", ["expense#0"])]
    assert decisions.apply_judgement(verdicts, [0], Judgement(checks=[])) == (verdicts, 0)


def test_a_negative_index_cannot_reach_another_claim():
    verdicts = [verdict("A.", ["expense#0"]), verdict("B.", ["expense#0"])]
    judgement = Judgement(checks=[ClaimCheck(claim=-1, supported=False, reason="x")])
    assert decisions.apply_judgement(verdicts, [0, 1], judgement) == (verdicts, 0)


def test_claims_and_titles_are_escaped_too():
    evil = EXPENSE.model_copy(update={"chunk_id": 'a" onload="x', "title": "<b>T</b>"})
    block = quoting.document(evil)
    assert block.startswith('<document id="a&quot; onload=&quot;x" title="&lt;b&gt;T&lt;/b&gt;">')
    assert quoting.claim(0, verdict("x < y", ['a"b']).claim) == '<claim index="0" cites="a&quot;b">x &lt; y</claim>'


def _validation_error() -> ValidationError:
    try:
        Understanding.model_validate({"query_class": "bogus"})
    except ValidationError as exc:
        return exc
    raise AssertionError




@pytest.mark.parametrize(("exc", "name"), [
    (DeadlineExceeded("late"), "timeout"),
    (openai.APITimeoutError(request=REQUEST), "timeout"),
    (openai.InternalServerError("boom", response=httpx.Response(500, request=REQUEST), body=None), "HTTP 500"),
    (openai.APIConnectionError(request=REQUEST), "connection error"),
    (ConnectionRefusedError(111, "Connection refused"), "connection refused"),
    (_validation_error(), "unparseable output"),
    (ValueError("odd"), "ValueError"),
])
def test_failures_are_named_briefly(exc, name):
    assert failures.describe(exc) == name


def test_the_repair_hint_lists_the_validation_errors():
    assert failures.repair_hint(_validation_error()).startswith("query_class: Input should be")
