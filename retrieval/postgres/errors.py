"""PostgreSQL failures turned into precise, user-safe index errors (no traceback, no password in the message)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import PoolTimeout

from boundloop.retrieval.errors import IndexStoreError


class IndexUnavailableError(IndexStoreError):
    """The index database cannot be reached (down, wrong address, refused login); nothing was read or written."""


class IndexAccessError(IndexStoreError):
    """The role a connection uses may not do what was asked, or could see more than it should."""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


@contextmanager
def database_errors(where: str) -> Iterator[None]:
    """Re-raise driver errors as `IndexStoreError` subclasses naming `where` (a URL without its password)."""
    try:
        yield
    except PoolTimeout:
        raise IndexUnavailableError(f"the PostgreSQL index at {where} is unavailable (no connection in time)") from None
    except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
        raise IndexUnavailableError(f"the PostgreSQL index at {where} is unavailable: {_first_line(exc)}") from None
    except pg_errors.InsufficientPrivilege as exc:
        raise IndexAccessError(f"PostgreSQL index at {where}: {_first_line(exc)} (see docs/postgres.md)") from None
    except (pg_errors.UndefinedTable, pg_errors.InvalidSchemaName):
        raise IndexStoreError(
            f"no boundloop index in {where} (run `boundloop ingest PATH --index URL` with the writer URL first)"
        ) from None
    except psycopg.Error as exc:
        raise IndexStoreError(f"PostgreSQL index at {where}: {_first_line(exc)}") from None
