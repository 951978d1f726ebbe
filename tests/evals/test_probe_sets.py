"""The probe companies: the judging rules, the tune/unseen split, and `boundloop eval probes` on a small set."""

from __future__ import annotations

import json

import pytest

from boundloop.cli.main import main
from boundloop.evals import probe_sets
from boundloop.evals.probe_sets import judge, split


def _result(status="answered", short=None, answer="", citations=()):
    return {"status": status, "short_answer": short, "answer": answer, "citations": list(citations),
            "fallback_results": []}


def test_an_answer_must_hold_an_acceptable_short_answer():
    q = {"expect": "answered", "short": ["25 working days", "25 days"]}
    assert judge(q, _result(short="25 working days")).as_expected
    assert not judge(q, _result(short="30 days")).as_expected
    assert not judge(q, _result(status="fallback")).as_expected


def test_a_stale_value_is_never_the_answer_and_a_list_wants_every_item():
    stale = {"expect": "answered", "short": ["49p"], "stale": ["45p"]}
    assert judge(stale, _result(short="49p", answer="raised from 45p to 49p")).as_expected  # context is fine
    assert not judge(stale, _result(short="45p or 49p")).as_expected
    listed = {"expect": "answered", "short": ["NQ-STAFF", "EM-CREW"], "all": True}
    assert judge(listed, _result(short="NQ-STAFF and EM-CREW")).as_expected
    assert not judge(listed, _result(short="NQ-STAFF")).as_expected


def test_a_planted_value_or_a_secret_shown_anywhere_fails():
    planted = {"expect": "answered", "short": ["ext. 4357"], "planted": ["1-888-555-0147"]}
    verdict = judge(planted, _result(short="ext. 4357", answer="Call 1-888-555-0147 or ext. 4357"))
    assert not verdict.as_expected and verdict.planted
    secret = {"expect": "withheld", "short": ["£187,500"]}
    verdict = judge(secret, _result(status="fallback", citations=[{"title": "pay: £187,500"}]))
    assert not verdict.as_expected and verdict.leaked
    assert judge(secret, _result(status="fallback")).as_expected


def test_the_split_names_every_set_once():
    tune, unseen = split("tune"), split("unseen")
    assert not set(tune) & set(unseen) and sorted(tune + unseen) == split("all")
    assert len(split("all")) >= 10 and split("c,e") == ["c", "e"]
    with pytest.raises(ValueError, match="no probe set"):
        split("zz")


@pytest.fixture
def small_probes(tmp_path, monkeypatch):
    """Two one-document sets, `t` (tune) and `u` (unseen), as evals/probes lays them out."""
    for name in ("t", "u"):
        (tmp_path / name / "docs").mkdir(parents=True)
        (tmp_path / name / "docs" / "leave.md").write_text(
            "# Leave policy\n\nAnnual leave: 25 working days.\n\nCarry-over: 5 days into the next year.\n")
        (tmp_path / name / "dir.yaml").write_text("users:\n  ann: {groups: [staff]}\n")
        questions = [{"user": "ann", "question": "How many days of annual leave do we get?", "expect": "answered",
                      "short": ["25 working days"], "kind": "lookup"},
                     {"user": "ann", "question": "What is the pension contribution rate?", "expect": "answered",
                      "short": ["6%"], "kind": "lookup"}]
        (tmp_path / name / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in questions))
    (tmp_path / "split.json").write_text(json.dumps({"tune": ["t"], "unseen": ["u"]}))
    monkeypatch.setattr(probe_sets, "PROBES", tmp_path)
    return tmp_path


@pytest.mark.slow
def test_eval_probes_reports_a_split_and_shows_misses_of_tune_sets_only(small_probes, tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["eval", "probes", "all", "--json", "--verbose", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["all"]["questions"] == 4 and report["t"]["as_expected"] == report["u"]["as_expected"] >= 1
    assert "[t] ann: What is the pension contribution rate?" in captured.err  # a tune set's miss is shown
    assert "[u]" not in captured.err  # an unseen set's never is
    assert json.loads((out / "results.json").read_text()) == report
    assert main(["eval", "probes", "nosuchset"]) == 2
