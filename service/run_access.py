"""Whether a caller may still read a stored run: its owner, and only while every chunk it shows is still theirs.

A run's result quotes the chunks it cites (claims, citations, fallback snippets, conflicts), a follow-up's standalone
question may quote an earlier answer (the run store keeps what those turns showed), and its trace names what its
evidence said. Access is decided again on every read, with the directory and the index as they are now: a run
whose owner has since lost a group, or whose cited document was re-labelled or deleted, is withheld.
"""

from __future__ import annotations

from collections.abc import Iterable

from boundloop.domain.models import Evidence
from boundloop.service.errors import Forbidden, NotFound
from boundloop.service.state import ServiceState

WITHHELD = "run withheld: it shows documents you can no longer read"


def require_owner(state: ServiceState, run_id: str, user: str) -> None:
    """404, not 403, for another user's run: whether a run id exists is itself not theirs to learn."""
    if state.store.owner(run_id) != user:
        raise NotFound(f"no run {run_id}")


def evidence_chunks(evidence: Iterable[Evidence]) -> set[str]:
    """The chunk ids of a run's evidence."""
    return {e.chunk_id for e in evidence}


def unreadable_chunks(state: ServiceState, user: str, chunk_ids: set[str]) -> set[str]:
    """The chunks of `chunk_ids` the user may not read now, deleted ones included.

    A user the directory no longer knows is an `UnknownUserError`.
    """
    if not chunk_ids:
        return set()
    return chunk_ids - set(state.backend.load_chunks(sorted(chunk_ids), state.resolver.access_filter(user)))


def require_readable(state: ServiceState, user: str, chunk_ids: set[str]) -> None:
    """403 unless the user may read every one of these chunks now."""
    if unreadable_chunks(state, user, chunk_ids):
        raise Forbidden(WITHHELD)
