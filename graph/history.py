"""Which earlier turns a follow-up may lean on: the last 50, and only those whose user may still read all they showed.

History holds only what its user was shown, so it can never widen what a later turn sees. Access is decided again
on every turn, with the directory and the index as they are now: a turn that showed a chunk its user has since lost
(a group removed, a document re-labelled or deleted) leaves the context, so a follow-up cannot bring back through
its question what the user may no longer read.
"""

from __future__ import annotations

from collections.abc import Sequence

from boundloop.domain.conversation import Turn, recent
from boundloop.retrieval.search import EntitledSearcher


def usable_turns(turns: Sequence[Turn], searcher: EntitledSearcher) -> tuple[list[Turn], int]:
    """The turns to resolve a follow-up against (oldest first), and how many were left out as no longer readable."""
    window = recent(list(turns))
    readable = searcher.readable([chunk for turn in window for chunk in turn.shown_chunks])
    kept = [turn for turn in window if set(turn.shown_chunks) <= readable]
    return kept, len(window) - len(kept)
