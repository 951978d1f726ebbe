"""What a LangGraph server response shows, and whether the caller of the request may still read all of it.

The loop's state and result name every chunk they quote: evidence and citations carry a `chunk_id`, claims cite
chunk ids, conflicts list `chunk_ids`, a turn keeps the `shown_chunks` of its answer and a follow-up the
`context_chunks` it took words from. Text derived from a chunk (a claim, a gap's sentence, a standalone question)
sits in the same state as its id, so a response whose ids the caller may all read shows nothing they may not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool

from boundloop.policies.errors import BoundloopError
from boundloop.service.run_access import unreadable_chunks
from boundloop.service.state import ServiceState

CHUNK_ID = "chunk_id"
CHUNK_LISTS = frozenset({"chunk_ids", "citations", "context_chunks", "shown_chunks"})
"""Keys whose value is a list of chunk ids (a result's `citations` is a list of objects, each with a `chunk_id`)."""


def chunk_ids(value: Any) -> set[str]:
    """Every chunk id named anywhere in a JSON value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if key == CHUNK_ID and isinstance(inner, str):
                    found.add(inner)
                elif key in CHUNK_LISTS and isinstance(inner, list):
                    found.update(i for i in inner if isinstance(i, str))
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _header(headers: Sequence[tuple[bytes, bytes]], name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in headers if key.lower() == name]


class CallerAccess:
    """The caller of one request, and which chunk ids they may read now; the directory is asked once per new id.

    The caller is found from the request's credential as `Auth.authenticate` finds them (this check runs outside
    the server's auth middleware). A credential that no longer identifies anyone, or a user the directory no
    longer knows, may read nothing.
    """

    def __init__(self, state: Callable[[], ServiceState], headers: Sequence[tuple[bytes, bytes]]) -> None:
        self._state = state
        self._headers = headers
        self._user: str | None = None
        self._readable: set[str] = set()
        self._unreadable: set[str] = set()

    async def may_read(self, ids: set[str]) -> bool:
        """Whether the caller may read every one of these chunks (blocking reads run in a worker thread)."""
        unknown = ids - self._readable - self._unreadable
        if unknown:
            denied = await run_in_threadpool(self._denied, unknown)
            self._unreadable |= denied
            self._readable |= unknown - denied
        return not ids & self._unreadable

    def _denied(self, ids: set[str]) -> set[str]:
        state = self._state()
        try:
            if self._user is None:
                self._user = state.identity.user_for(_header(self._headers, b"authorization"),
                                                     _header(self._headers, b"x-api-key"))
            return unreadable_chunks(state, self._user, ids)
        except BoundloopError:  # an unknown credential or user (AuthenticationFailed, UnknownUserError): fail closed
            return set(ids)
