"""A conversation as the loop sees it: the earlier turns, each as its user was shown it, and a follow-up resolved.

A follow-up ("And in Toronto?", "At which desk does she sit?") is made to stand alone from the earlier turns before
the loop runs. Only what the user was shown is kept (the question, the answer text, the short answer), never the
passages read, so history cannot widen what a later turn may see; and a turn whose shown chunks its user may no
longer read leaves the context (`graph.history`). Past `MAX_CONTEXT_TURNS` turns, the oldest leave the context.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from boundloop.domain.models import Status
from boundloop.domain.result import RunResult

MAX_CONTEXT_TURNS = 50
"""The most recent turns a follow-up is resolved against; older turns stay listed but leave the context."""


class Turn(BaseModel):
    """One earlier question of a conversation and what its user was shown."""

    model_config = ConfigDict(extra="forbid")

    run_id: str = Field(description="The run that answered it.")
    question: str = Field(description="The question as asked.")
    standalone_question: str = Field(description="The question as the loop answered it.")
    answer: str = Field(description="The answer shown: its claims with [n] markers, or why there was none.")
    short_answer: str | None = Field(default=None, description="The value shown above the claims, if any.")
    status: Status = Field(description="answered, abstained or fallback.")
    shown_chunks: list[str] = Field(
        default_factory=list, description="The chunks the answer showed; the turn stays in the context of later "
        "turns only while its user may read every one of them.")

    @classmethod
    def shown(cls, question: str, result: RunResult, context_chunks: Iterable[str] = ()) -> Turn:
        """The turn a finished run makes: its question and what its result showed.

        `context_chunks` are what the earlier turns its standalone question leaned on showed: a name taken from an
        earlier answer is shown again in the standalone question, so the turn shows those chunks too.
        """
        return cls(run_id=result.run_id, question=question,
                   standalone_question=result.standalone_question or question, answer=result.answer,
                   short_answer=result.short_answer, status=result.status,
                   shown_chunks=sorted(result.shown_chunks() | set(context_chunks)))


def recent(turns: list[Turn]) -> list[Turn]:
    """The turns a follow-up may lean on: the last `MAX_CONTEXT_TURNS`."""
    return turns[-MAX_CONTEXT_TURNS:]


class Resolution(BaseModel):
    """A question made to stand alone, and how."""

    standalone_question: str = Field(description="The question with its references to earlier turns filled in.")
    follow_up: bool = Field(default=False, description="Whether earlier turns were used.")
    leaned_on: list[int] = Field(default_factory=list, description="The earlier turns (positions in the turns "
                                 "given, oldest first from 0) whose words the standalone question took.")
    how: str = Field(default="", description="What was filled in, and from which turn, for the trace.")

    def context_chunks(self, turns: list[Turn]) -> list[str]:
        """What the turns it leaned on showed: the standalone question shows it again."""
        return sorted({chunk for n in self.leaned_on if 0 <= n < len(turns) for chunk in turns[n].shown_chunks})
