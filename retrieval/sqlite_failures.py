"""What an SQLite error means for the person running boundloop: a full disk, a damaged file, or neither.

The index and the run store both turn SQLite's errors into one clear line naming the file and what to do.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from boundloop.policies.errors import BoundloopError, StoreDamaged, StoreUnwritable

# SQLite's primary result codes (the low byte of an extended code)
_PERM, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 3, 8, 10, 11, 13, 14, 26


def sqlite_failure(exc: BaseException, path: Path, what: str, remedy: str) -> BoundloopError | None:
    """The user-facing error for `exc`, raised by the SQLite file `path` (`what`: "index", "run store"), or None.

    `remedy` says what to do about a damaged file. A full disk and a write refused by the file system (the file-size
    limit, a read-only mount) read the same: nothing was written.
    """
    if not isinstance(exc, sqlite3.DatabaseError):
        return None
    code = (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
    if code in (_CORRUPT, _NOTADB) or "malformed" in str(exc) or "not a database" in str(exc):
        return StoreDamaged(f"the {what} {path} is damaged ({exc}): {remedy}")
    if code in (_FULL, _IOERR) or "disk is full" in str(exc):
        return StoreUnwritable(f"cannot write the {what} {path}: the disk is full or refused the write ({exc}); "
                               "nothing was written")
    if code in (_READONLY, _PERM, _CANTOPEN):
        return StoreUnwritable(f"cannot write the {what} {path}: {exc}; nothing was written")
    return None


F = TypeVar("F", bound=Callable[..., Any])


def clear_sqlite_errors(what: str, remedy: str) -> Callable[[F], F]:
    """Decorate a method of an object whose `database_path` names its SQLite file: its errors read clearly."""

    def decorate(method: F) -> F:
        @functools.wraps(method)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except sqlite3.DatabaseError as exc:
                failure = sqlite_failure(exc, self.database_path, what, remedy)
                if failure is None:
                    raise
                raise failure from None

        return cast(F, wrapper)

    return decorate
