"""`LoopRunner.ask` is the last event of `LoopRunner.stream`: one code path, one failure handling."""

from __future__ import annotations

import logging
import sqlite3

from boundloop.domain.result import RunResult
from boundloop.domain.trace import Span
from tests.loop_fixtures import make_runner

QUESTION = "Who is the Head of Finance?"
PER_RUN = {"run_id", "conversation_id", "usage"}
"""What differs between two runs of one question: their ids, and the time in their usage."""


def _events(runner, question: str = QUESTION) -> tuple[list[Span], RunResult]:
    events = list(runner.stream(question, "bob"))
    kinds = [kind for kind, _ in events]
    assert kinds == ["span"] * (len(events) - 1) + ["result"]
    result = events[-1][1]
    assert isinstance(result, RunResult)
    return [span for _, span in events[:-1] if isinstance(span, Span)], result


def test_ask_answers_as_the_stream_ends(tmp_path, index, encoder, resolver):
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path)
    spans, streamed = _events(runner)
    asked = runner.ask(QUESTION, "bob")
    assert asked.status == "answered" and "Priya Raman" in asked.answer
    assert asked.model_dump(exclude=PER_RUN) == streamed.model_dump(exclude=PER_RUN)
    assert asked.usage.model_dump(exclude={"elapsed_ms"}) == streamed.usage.model_dump(exclude={"elapsed_ms"})
    assert [span.node for span in runner.trace(asked.run_id)] == [span.node for span in spans]  # both recorded
    assert runner.store.result(asked.run_id) == asked


def test_a_store_damaged_under_a_streamed_run_answers_it_again_unrecorded(
        tmp_path, index, encoder, resolver, monkeypatch, caplog):
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path)

    def malformed(*args, **kwargs):  # the run's checkpoint, written as it ends, finds a damaged page
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(runner.checkpointer, "put", malformed)
    with caplog.at_level(logging.WARNING):
        spans, result = _events(runner)
    assert result.status == "answered" and "Priya Raman" in result.answer
    assert [span.node for span in spans].count("respond") == 1  # the second answering sends no spans
    assert "answering this run again, unrecorded" in caplog.text and runner.store.damaged
