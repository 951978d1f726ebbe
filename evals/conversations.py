"""Two-turn conversations over the demo (`demo/conversations.jsonl`), scored: follow-ups as expected, and leaks.

Is each follow-up answered as expected, and does anything of a forbidden document reach the user in either turn?
Each line names its user, a first question and a follow-up (a pronoun, an ellipsis, a topic switch, or a follow-up
about a document the user may not read), and what the follow-up must give: `answered` with `answer_contains`, or not
answered (`abstained`) without citing or listing its `forbidden_doc_ids`. Both turns run through `LoopRunner.ask`,
the second with the first's `conversation_id`, exactly as `POST /ask` runs them. Leaks are judged from the demo's
own ACLs and directory, never from the index (`evals.leaks`), plus its canaries anywhere in either result.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from boundloop.domain.result import RunResult
from boundloop.evals.demo_questions import load as load_demo
from boundloop.evals.leaks import AccessView, LeakDetector
from boundloop.evals.records import RunRecord
from boundloop.evals.systems import record_of
from boundloop.loop.runner import LoopRunner
from boundloop.retrieval.config import DEMO_ROOT

CONVERSATIONS = DEMO_ROOT / "conversations.jsonl"
KINDS = ("ellipsis", "pronoun", "topic_switch", "forbidden")
_CANARY = re.compile(r"CANARY-[A-Z]+-\d{4}")


@dataclass(frozen=True)
class Conversation:
    """One two-turn conversation and what its follow-up must give."""

    id: str
    user: str
    kind: str
    first: str
    follow_up: str
    expect: str
    answer_contains: tuple[str, ...] = ()
    gold_doc_ids: tuple[str, ...] = ()
    forbidden_doc_ids: tuple[str, ...] = ()


def load_conversations(path: Path = CONVERSATIONS) -> list[Conversation]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = []
    for row in rows:
        if row["kind"] not in KINDS or row["expect"] not in ("answered", "abstained"):
            raise ValueError(f"{path}: {row['id']}: kind must be one of {KINDS}, expect answered or abstained")
        out.append(Conversation(id=row["id"], user=row["user"], kind=row["kind"], first=row["first"],
                                follow_up=row["follow_up"], expect=row["expect"],
                                answer_contains=tuple(row.get("answer_contains", [])),
                                gold_doc_ids=tuple(row.get("gold_doc_ids", [])),
                                forbidden_doc_ids=tuple(row.get("forbidden_doc_ids", []))))
    return out


@dataclass
class Outcome:
    """How one conversation went."""

    conversation: Conversation
    first: RunResult
    follow: RunResult
    as_expected: bool
    leaks: list[str] = field(default_factory=list)


def as_expected(conversation: Conversation, follow: RunResult) -> bool:
    """Answered with every expected string, or (a forbidden document's follow-up) not answered and not listing it."""
    if conversation.expect == "answered":
        shown = f"{follow.answer} {follow.short_answer or ''}"
        return follow.status == "answered" and all(text in shown for text in conversation.answer_contains)
    listed = {c.doc_id for c in follow.citations} | {r.doc_id for r in follow.fallback_results}
    return follow.status != "answered" and not listed & set(conversation.forbidden_doc_ids)


class ConversationEval:
    """Runs the conversations through one runner (it needs a run store: follow-ups continue a stored conversation)."""

    def __init__(self, runner: LoopRunner) -> None:
        demo = load_demo(DEMO_ROOT, None)
        view = AccessView({d: frozenset(p.acl or ()) for d, p in demo.passages.items()},
                          {u: frozenset(g) for u, g in demo.directory.items()})
        self.runner = runner
        self.detector = LeakDetector(view, {d: p.text for d, p in demo.passages.items()})
        self.view = view
        self.canaries = {canary: d for d, p in demo.passages.items() for canary in _CANARY.findall(p.text)}

    def _record(self, result: RunResult) -> RunRecord:
        state = self.runner.graph.get_state({"configurable": {"thread_id": result.run_id}}).values
        return record_of(result, state, 0.0)

    def leaks(self, user: str, result: RunResult) -> list[str]:
        found = self.detector.findings(user, self._record(result))
        for canary in _CANARY.findall(result.model_dump_json()):
            if not self.view.permits(user, self.canaries.get(canary, "")):
                found.append(f"canary {canary} of a forbidden document")
        return found

    def run(self, conversation: Conversation) -> Outcome:
        first = self.runner.ask(conversation.first, conversation.user)
        follow = self.runner.ask(conversation.follow_up, conversation.user, first.conversation_id)
        leaks = self.leaks(conversation.user, first) + self.leaks(conversation.user, follow)
        return Outcome(conversation, first, follow, as_expected(conversation, follow), leaks)
