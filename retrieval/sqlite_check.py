"""`boundloop doctor` for SQLite files: page integrity, and for the index, that chunks, full text and vectors agree.

Read-only: the file is opened with `mode=ro`, so a check never changes what it looks at.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Finding:
    """One check's outcome, as one line: what was checked, and what was found (or what to do)."""

    ok: bool
    subject: str
    detail: str


def _open(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def check_integrity(path: Path, what: str, remedy: str) -> Finding:
    """SQLite's own integrity check of every page of `path`."""
    if not path.exists():
        return Finding(False, f"{what} {path}", "missing")
    try:
        with closing(_open(path)) as db:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
    except sqlite3.DatabaseError as exc:
        problems = [str(exc)]
    if problems == ["ok"]:
        return Finding(True, f"{what} {path}", "integrity ok")
    return Finding(False, f"{what} {path}", f"damaged ({problems[0]}): {remedy}")


def check_index_agrees(path: Path, remedy: str) -> Finding:
    """Every chunk has its full-text row and a vector of the index's dimension."""
    try:
        with closing(_open(path)) as db:
            chunks = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
            indexed = db.execute("SELECT count(*) FROM chunks_fts_docsize").fetchone()[0]
            dimension = db.execute("SELECT value FROM meta WHERE key='dimension'").fetchone()
            width = int(dimension[0]) * 4 if dimension else None
            odd = db.execute("SELECT count(*) FROM chunks WHERE length(vector) <> ?", (width,)).fetchone()[0] \
                if width else 0
            documents = db.execute("SELECT count(*) FROM documents").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return Finding(False, f"index {path}", f"cannot be read ({exc}): {remedy}")
    if indexed != chunks or odd:
        found = f"{chunks} chunks, {indexed} full-text rows, {odd} vectors of the wrong size"
        return Finding(False, f"index {path}", f"{found}: {remedy}")
    return Finding(True, f"index {path}", f"{documents} documents, {chunks} chunks; full text and vectors agree")
