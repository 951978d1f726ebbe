"""Files that hold documents or runs are readable by their owner only: 0600 files in 0700 folders.

Applied when an index or a run database is created, and again whenever one is opened, so folders made by an older
version are tightened too. A file or folder owned by someone else (a read-only mount, say) is left as it is.
"""

from __future__ import annotations

import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def _tighten(path: Path, mode: int) -> None:
    try:
        if path.stat().st_uid == os.geteuid() and path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
    except FileNotFoundError:
        pass


def private_folder(path: Path) -> Path:
    """Create the folder (and missing parents) owner-only, or tighten it if it exists."""
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    _tighten(path, FOLDER_MODE)
    return path


def private_database(path: Path) -> Path:
    """Make sure an SQLite database file exists owner-only, in an owner-only folder, before SQLite opens it.

    SQLite gives its WAL and shared-memory files the database file's permissions, so they follow; existing ones are
    tightened here too.
    """
    private_folder(path.parent)
    fd = os.open(path, os.O_CREAT | os.O_RDWR, FILE_MODE)  # mode applies only when the file is new
    os.close(fd)
    for name in (path.name, *(path.name + suffix for suffix in SQLITE_COMPANIONS)):
        _tighten(path.with_name(name), FILE_MODE)
    return path
