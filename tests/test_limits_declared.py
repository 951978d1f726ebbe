"""A limit is one field: every place that lists limits derives them from `BudgetLimits`' fields.

Each test runs over every declared limit, so a new field of `BudgetLimits` is checked in every derived place (the
checks, the stop reasons, shares and metrics, the trace, stats, the eval gate's budget check, the CLI and the page)
without a line added here: a limit one of them forgot fails here.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from dataclasses import fields, replace
from typing import get_args

import pytest

from boundloop.domain.result import RunResult
from boundloop.domain.trace import Span
from boundloop.domain.usage import StopReason, Usage
from boundloop.evals.metrics import budget_problems
from boundloop.evals.records import RunRecord
from boundloop.evals.report_tables import STOP_REASONS
from boundloop.policies.budget import check_before_retrieval_call, check_before_step, first_reached, spent_limit
from boundloop.policies.limits import LIMIT, Bound, BudgetLimits, bounds, declared, limits_as_usage, used_shares
from boundloop.policies.settings import Settings, env_name
from boundloop.runstore.stats import summarise

LIMITS = BudgetLimits()
BOUNDS = {bound.limit.stop_reason: bound for bound in bounds(LIMITS)}


def _at(bound: Bound) -> Usage:
    """A usage that just reaches `bound` and nothing else."""
    return Usage(**{bound.limit.usage: int(bound.reach)})


def test_each_usage_field_and_stop_reason_has_exactly_one_limit():
    limits = [f.metadata[LIMIT] for f in fields(BudgetLimits)]
    assert sorted(limit.usage for limit in limits) == sorted(Usage.model_fields)
    assert sorted(limit.stop_reason for limit in limits) == sorted(get_args(StopReason))
    for bound in bounds(LIMITS):  # each limit is the setting of its name, with the same default
        assert bound.env.startswith("BOUNDLOOP_MAX_") and bound.env == env_name(bound.name)
        assert Settings.model_fields[bound.name].default == bound.value


@pytest.mark.parametrize("reason", sorted(BOUNDS))
def test_the_one_check_stops_for_each_limit_where_it_forbids(reason):
    bound = BOUNDS[reason]
    reached = _at(bound)
    below = Usage(**{bound.limit.usage: int(bound.reach) - 1})
    assert first_reached(below, LIMITS, "retrieve") is None
    # every limit forbids another hop; those that forbid any step or a search call stop those too
    assert check_before_step("retrieve", reached, LIMITS) == reason
    assert check_before_step("plan", reached, LIMITS) == (reason if "step" in bound.limit.forbids else None)
    assert spent_limit(reached, LIMITS) == (reason if "step" in bound.limit.forbids else None)
    assert check_before_retrieval_call(reached, LIMITS) == (reason if "search" in bound.limit.forbids else None)
    assert check_before_step("respond", reached, LIMITS) is None  # the closing path always runs


@pytest.mark.parametrize("reason", sorted(BOUNDS))
def test_each_limit_is_read_from_its_variable(reason, monkeypatch):
    bound = BOUNDS[reason]
    monkeypatch.setenv(bound.env, "7")
    assert getattr(BudgetLimits.from_env(), bound.name) == 7


def test_shares_trace_limits_stats_and_report_name_every_limit():
    reasons = {limit.stop_reason for limit in declared()}
    spent = Usage(**{limit.usage: 1 for limit in declared()})
    assert set(used_shares(spent, LIMITS)) == reasons  # the metrics' `resource` labels
    assert limits_as_usage(LIMITS) == Usage(**{b.limit.usage: int(b.reach) for b in bounds(LIMITS)})
    assert all(getattr(limits_as_usage(LIMITS), limit.usage) > 0 for limit in declared())
    runs = [{"query_class": "lookup", "status": "fallback", "stop_reason": reason, "usage": {}} for reason in reasons]
    assert summarise(runs)["limit_hit_share"] == {reason: 1 / len(reasons) for reason in reasons}
    assert set(STOP_REASONS) == {"finished"} | reasons


@pytest.mark.parametrize("reason", sorted(BOUNDS))
def test_the_eval_gate_counts_a_run_over_each_limit(reason):
    bound = BOUNDS[reason]
    within = Usage(**{bound.limit.usage: int(bound.reach)})
    over = Usage(**{bound.limit.usage: int((bound.value + bound.limit.overrun) * bound.limit.per_unit) + 1})
    assert budget_problems(RunRecord(status="answered", answer="", usage=within), LIMITS) == []
    problems = budget_problems(RunRecord(status="answered", answer="", usage=over), LIMITS)
    assert len(problems) == 1 and bound.limit.words[1] in problems[0]


def _result(usage: Usage, stop_reason: StopReason | None) -> RunResult:
    return RunResult(run_id="r1", status="fallback", query_class="lookup", complete=stop_reason is None,
                     stop_reason=stop_reason, answer="", claims=[], citations=[], usage=usage, abstain_reason=None,
                     fallback_results=[], conflicts=[], dropped_claims=0)


@pytest.mark.parametrize("reason", sorted(BOUNDS))
def test_the_cli_shows_each_limits_usage_in_its_words(reason):
    from boundloop.cli.result_text import print_result

    bound = BOUNDS[reason]
    usage = Usage(**{limit.usage: 10 + n for n, limit in enumerate(declared())})
    out = io.StringIO()
    with redirect_stdout(out):
        print_result(_result(usage, reason))
    status = out.getvalue().strip().splitlines()[-1]
    assert f"INCOMPLETE: {reason} limit reached" in status
    assert f"{bound.used(usage)} {bound.limit.words[1]}" in status


def test_the_cli_trace_has_a_column_per_limit(monkeypatch, capsys):
    import argparse

    from boundloop.cli import loop_commands

    usage = Usage(**{limit.usage: 100 + n for n, limit in enumerate(declared())})
    span = Span(node="retrieve", start=0.0, duration_ms=1.0, decision="2 searches", reason="hop 1", usage=usage)

    class Opened:
        class runner:  # noqa: N801 - stands for the workspace's runner
            @staticmethod
            def trace(run_id: str) -> list[Span]:
                return [span]

    monkeypatch.setattr(loop_commands.Workspace, "open", staticmethod(lambda index, directory: Opened))
    loop_commands.run_trace(argparse.Namespace(run_id="r1", json=False, index=None, directory=None))
    header, row, reason = capsys.readouterr().out.splitlines()
    for limit in declared():
        assert limit.column in header.split()
        assert str(getattr(usage, limit.usage)) in row.split()
    assert reason.strip() == "(hop 1)" and reason.index("(") == row.index("2 searches")


def test_the_trace_sends_each_limit_with_its_names(client_trace):
    trace = client_trace
    assert trace["limits"]["hops"] == 2  # the limits in force
    assert [v["usage"] for v in trace["budget"]] == [limit.usage for limit in declared()]
    assert trace["limits"] == limits_as_usage(replace(LIMITS, max_hops=2)).model_dump()
    assert {v["stop_reason"] for v in trace["budget"]} == {limit.stop_reason for limit in declared()}


@pytest.fixture
def client_trace(index, encoder, tmp_path):
    from fastapi.testclient import TestClient

    from boundloop.service.app import create_app
    from tests.service.conftest import make_state
    from tests.service.keys import auth

    state = make_state(index, encoder, tmp_path, limits=replace(LIMITS, max_hops=2))
    with TestClient(create_app(state), raise_server_exceptions=False) as client:
        run = client.post("/ask", json={"question": "Who approves expense claims above EUR 5,000?"},
                          headers=auth("bob")).json()
        body = client.get(f"/runs/{run['run_id']}/trace", headers=auth("bob"))
        assert body.status_code == 200
        return json.loads(body.text)
