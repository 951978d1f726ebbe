"""The 20 two-turn demo conversations (`demo/conversations.jsonl`): 17 or more follow-ups answered as expected, and
nothing of a forbidden document in either turn of any of them."""

from __future__ import annotations

import pytest

from boundloop.evals.conversations import KINDS, ConversationEval, load_conversations
from boundloop.loop.runner import LoopRunner
from boundloop.loop.workspace import Workspace
from boundloop.policies.budget import BudgetLimits
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.runstore.sqlite import SqliteRunStore

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def outcomes(demo_cache, tmp_path_factory):
    workspace = Workspace.open(None, None)
    store = SqliteRunStore(tmp_path_factory.mktemp("conversations") / "runs.db")
    runner = LoopRunner(resolver=workspace.resolver, backend=workspace.backend, encoder=workspace.encoder,
                        reasoner=OfflineReasoner(), limits=BudgetLimits(), store=store)
    evaluation = ConversationEval(runner)
    yield [evaluation.run(c) for c in load_conversations()]
    store.close()


def test_the_file_holds_twenty_conversations_of_every_kind():
    conversations = load_conversations()
    assert len(conversations) == 20 and {c.kind for c in conversations} == set(KINDS)
    assert all(c.forbidden_doc_ids for c in conversations if c.kind == "forbidden")


def test_seventeen_or_more_follow_ups_are_answered_as_expected(outcomes):
    missed = [o.conversation.id for o in outcomes if not o.as_expected]
    assert len(outcomes) - len(missed) >= 17, missed


def test_no_turn_of_any_conversation_leaks(outcomes):
    assert [leak for o in outcomes for leak in o.leaks] == []
    for o in outcomes:
        assert o.follow.conversation_id == o.first.conversation_id


def test_every_follow_up_but_a_topic_switch_was_resolved(outcomes):
    """A topic switch is kept as asked; every other follow-up is rewritten, unless it points to a person its first
    turn's answer never named and whose question asked about no role (then there is nobody to point to)."""
    for o in outcomes:
        rewritten = o.follow.standalone_question != o.conversation.follow_up
        if o.conversation.kind == "topic_switch":
            assert not rewritten, o.conversation.id
        elif not (o.conversation.kind == "pronoun" and o.first.status != "answered"):
            assert rewritten, o.conversation.id
    assert sum(o.follow.standalone_question != o.conversation.follow_up for o in outcomes) >= 15
