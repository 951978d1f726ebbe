"""Conversations and feedback in both run stores: ownership, order, pages, retention, deletion."""

from __future__ import annotations

import time
from contextlib import contextmanager

from boundloop.domain.feedback import Rating
from boundloop.runstore import postgres as pg_store
from boundloop.runstore import sqlite as sqlite_store
from boundloop.runstore.retention import Retention
from tests.test_runstore import _open, _threads, result


@contextmanager
def _opened(place, keep: int | None = None):
    """A run store at `place`, keeping the last `keep` runs when given; closed afterwards."""
    store = _open(*place)
    if keep is not None:
        store.retention = Retention(keep=keep)
    try:
        yield store
    finally:
        store.close()


def _turn(store, run_id: str, conversation: str, owner: str = "bob", question: str = "q", at: float | None = None,
          finished: bool = True) -> None:
    store.start(run_id, owner, question, conversation)
    if at is not None:
        store._execute("UPDATE boundloop_runs SET created_at=? WHERE run_id=?", (at, run_id))
        store._execute("UPDATE boundloop_conversations SET updated_at=? WHERE conversation_id=?", (at, conversation))
    config = {"configurable": {"thread_id": run_id, "checkpoint_ns": ""}}
    store.checkpointer.put(config, {"v": 1, "id": "1", "ts": "", "channel_values": {}, "channel_versions": {},
                                    "versions_seen": {}}, {}, {})
    if finished:
        store.finish(run_id, result(run_id).model_copy(update={"conversation_id": conversation,
                                                               "standalone_question": question}))


def test_a_conversation_is_its_owners_titled_by_its_first_question_with_its_turns_in_order(place):
    with _opened(place) as store:
        _turn(store, "r1", "c1", question="How many days of annual leave do Lisbon employees get?")
        _turn(store, "r2", "c1", question="And in Toronto?")
        _turn(store, "r3", "c1", question="And personal days?", finished=False)
        assert store.conversation_owner("c1") == "bob" and store.conversation_owner("nope") is None
        row = store.conversation("c1")
        assert row.title == "How many days of annual leave do Lisbon employees get?" and row.turns == 3
        turns = store.turn_rows("c1")
        assert [(t.run_id, t.question, t.status) for t in turns] == [
            ("r1", "How many days of annual leave do Lisbon employees get?", "answered"),
            ("r2", "And in Toronto?", "answered"), ("r3", "And personal days?", None)]
        assert [t.run_id for t in store.turn_rows("c1", last=2)] == ["r2", "r3"]
        assert [t.question for t in store.context_turns("c1")] == [turns[0].question, "And in Toronto?"]  # finished


def test_conversations_are_listed_newest_first_a_page_at_a_time_and_only_the_owners(place):
    with _opened(place) as store:
        now = time.time()
        for n in range(5):
            _turn(store, f"b{n}", f"cb{n}", at=now - 100 + n)
        _turn(store, "a0", "ca0", owner="alice", at=now)
        _turn(store, "b9", "cb1", at=now + 1)  # a new turn brings a conversation to the top
        first = store.conversations("bob", limit=3)
        assert [c.conversation_id for c in first] == ["cb1", "cb4", "cb3"] and first[0].turns == 2
        rest = store.conversations("bob", limit=3, before=(first[-1].updated_at, first[-1].conversation_id))
        assert [c.conversation_id for c in rest] == ["cb2", "cb0"]
        assert [c.conversation_id for c in store.conversations("alice", limit=10)] == ["ca0"]


def test_deleting_a_conversation_deletes_its_runs_and_their_checkpoints(place):
    with _opened(place) as store:
        _turn(store, "r1", "c1")
        _turn(store, "r2", "c1")
        _turn(store, "other", "c2")
        assert store.delete_conversation("c1") == 2
        assert store.conversation("c1") is None and store.owner("r1") is None and store.owner("r2") is None
        assert _threads(store) == {"other"} and store.conversation_owner("c2") == "bob"


def test_retention_takes_a_conversation_with_its_last_run(place):
    with _opened(place, keep=2) as store:
        _turn(store, "r1", "old", at=time.time() - 10)
        _turn(store, "r2", "kept", at=time.time() - 5)
        _turn(store, "r3", "kept")
        assert store.conversation("old") is None and store.conversation("kept").turns == 2


def test_feedback_is_kept_with_the_run_the_latest_wins_and_goes_with_it(place):
    with _opened(place, keep=1) as store:
        _turn(store, "r1", "c1")
        assert store.feedback("r1") is None
        store.record_feedback("r1", Rating(score=1))
        stored = store.record_feedback("r1", Rating(score=-1, comment="It cites the 2024 policy."))
        assert store.feedback("r1") == stored and stored.score == -1 and stored.time is not None
        assert [r["feedback_score"] for r in store.finished_runs()] == [-1]
        _turn(store, "r2", "c2")  # retention keeps one run: r1 and its feedback go
        assert store.feedback("r1") is None and store.owner("r1") is None


def test_a_store_made_before_conversations_and_feedback_is_migrated_when_opened(place, monkeypatch):
    """A store at schema version 2 (before migrations 3 and 4) opens: its runs keep their results and may be rated."""
    kind, where = place
    module = sqlite_store if kind == "sqlite" else pg_store
    with monkeypatch.context() as before:
        before.setattr(module, "MIGRATIONS", module.MIGRATIONS[:2])
        old = _open(kind, where)
        try:
            # What a version-2 store's run looked like (its `start` and `finish` had no conversation or feedback).
            old._execute("INSERT INTO boundloop_runs (run_id, owner, created_at, question, status, query_class, "
                         "complete, hops, tokens, retrieval_calls, elapsed_ms, result) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         ("r0", "bob", time.time(), "Who is the Head of Finance?", "answered", "lookup", True, 1, 9,
                          7, 40, old._json(result("r0").model_dump_json(exclude={"conversation_id",
                                                                                 "standalone_question"}))))
            assert old._rows("SELECT max(version) AS v FROM boundloop_schema") == [{"v": 2}]
        finally:
            old.close()
    store = _open(kind, where)
    try:
        versions = store._rows("SELECT version FROM boundloop_schema ORDER BY version")
        assert [row["version"] for row in versions] == list(range(1, len(module.MIGRATIONS) + 1))
        assert store.result("r0") == result("r0") and store.result("r0").conversation_id is None
        assert store.feedback("r0") is None and store.record_feedback("r0", Rating(score=1)).score == 1
        assert store.conversations("bob", limit=10) == []  # a run from before has no conversation
        _turn(store, "r1", "c1")
        assert [c.conversation_id for c in store.conversations("bob", limit=10)] == ["c1"]
        assert [row["feedback_score"] for row in store.finished_runs()] in ([1, None], [None, 1])
        # migration 5: the old run's usage columns became its usage document; stats still read it
        usage = [row["usage"] for row in store.finished_runs()]
        assert {"hops": 1, "tokens": 9, "retrieval_calls": 7, "elapsed_ms": 40} in usage  # r0's own columns
        assert "hops" not in store._rows("SELECT * FROM boundloop_runs WHERE run_id='r0'")[0]
    finally:
        store.close()
