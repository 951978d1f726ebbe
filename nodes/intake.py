"""Intake: a new question on a thread starts clean; only the conversation's turns carry over.

On the LangGraph server a thread is a conversation, and each run on it starts from the thread's last state: without
this node the second question would find the first one's evidence, answer and `next_step: "end"`. Intake writes
every per-question key back to empty: a list to `[]` (through `Overwrite` where a reducer would add to the old
value), anything else to None, keeping only `question` (just written by the input) and `turns`. It is not a step of
the loop: it decides nothing, spends nothing and leaves no span; the governor then starts the run with its first step.
"""

from __future__ import annotations

from typing import Annotated, Any, get_args, get_origin, get_type_hints

from langgraph.types import Overwrite

from boundloop.domain.result import RunResult
from boundloop.graph.state import LoopState

KEPT = frozenset({"question", "turns"})
"""What a new question on the thread keeps: the question itself and the conversation so far."""
_HINTS = get_type_hints(LoopState, include_extras=True)
ACCUMULATING = frozenset(key for key, hint in _HINTS.items() if get_origin(hint) is Annotated) - KEPT
"""Keys with a reducer: cleared with `Overwrite`, which bypasses it."""
LISTS = frozenset(key for key, hint in _HINTS.items() if get_origin(hint) is list) - KEPT
"""Plain lists: cleared to `[]`, so `state.get(key, [])` reads an empty list as before the first question."""
CLEARED = frozenset(set(_HINTS) | set(RunResult.model_fields)) - KEPT - ACCUMULATING - LISTS
"""Every other key of the state and of the output: cleared to None."""
assert all(get_origin(get_args(_HINTS[key])[0]) is list for key in ACCUMULATING), "a reducer over a non-list"


def intake(state: LoopState) -> dict[str, Any]:
    """Clears what the thread's last question left: its evidence, trace, answer and next step.

    The question's white space is folded to single spaces: no pattern the reader runs then meets a long run of
    blanks, where overlapping white-space quantifiers would backtrack for minutes.
    """
    return {**{key: Overwrite([]) for key in ACCUMULATING}, **{key: [] for key in LISTS}, **dict.fromkeys(CLEARED),
            "question": " ".join(state.get("question", "").split())}
