"""Files that hold documents or runs are readable by their owner only: 0600 files in 0700 folders.

Applied when an index or a run database is created, and again whenever one is opened, so folders made by an older
version are tightened too. A file or folder owned by someone else (a read-only mount, say) is left as it is.

A database that may be open in SQLite, in this process or another, is never opened here: closing any descriptor of
a file drops every POSIX lock this process holds on it, SQLite's included (sqlite.org, "How To Corrupt An SQLite
Database File", 2.2). A connection that lost its locks lets another process's last connection checkpoint and delete
the WAL it is still writing to, and every run written after that is lost. So modes are set by path (`chmod`), and a
missing database is made as a new file under another name, closed, then linked into place.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def _tighten(path: Path, mode: int) -> None:
    try:
        info = path.stat()
        if info.st_uid == os.geteuid() and info.st_mode & 0o777 != mode:
            path.chmod(mode)
    except FileNotFoundError:
        pass


def private_folder(path: Path) -> Path:
    """Create the folder and each missing parent 0700 whatever the umask, or tighten the folder if it exists.

    `mkdir(parents=True, mode=...)` gives the mode to the last folder only; parents that already exist are left as
    they are.
    """
    missing = []
    folder = path
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:  # another process made it first: it is tightened below like any other
            pass
        _tighten(folder, FOLDER_MODE)
    _tighten(path, FOLDER_MODE)
    return path


def private_database(path: Path) -> Path:
    """Make sure an SQLite database file exists owner-only, in an owner-only folder, without ever opening it.

    SQLite gives its WAL and shared-memory files the database file's permissions, so they follow; existing ones are
    tightened here too, by path.
    """
    private_folder(path.parent)
    if not path.exists():
        _create_empty(path)
    for name in (path.name, *(path.name + suffix for suffix in SQLITE_COMPANIONS)):
        _tighten(path.with_name(name), FILE_MODE)
    return path


def _create_empty(path: Path) -> None:
    """An empty 0600 file at `path` (an empty file is a new SQLite database), unless one appeared meanwhile.

    The descriptor closed here is that of a file no one else can know of yet; `link` then fails rather than replace
    a database another process created in the meantime.
    """
    fd, spare = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")  # 0600 whatever the umask
    os.close(fd)
    try:
        os.link(spare, path)
    except FileExistsError:
        pass
    except OSError:  # a file system without hard links: create in place, closed before SQLite can have opened it
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
        except FileExistsError:
            pass
    finally:
        os.unlink(spare)


def write_private_text(path: Path, text: str) -> None:
    """Write a small file (an index's stamp, say) owner-only, whatever the umask; never a live database."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    os.fchmod(fd, FILE_MODE)  # the umask narrows a new file's mode, and an existing file keeps its own
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
