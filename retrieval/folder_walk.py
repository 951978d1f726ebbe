"""The files of a folder that ingest may read: never through a symbolic link that leaves the folder.

Links are not followed unless asked (`follow_links`), and even then only when their target is inside the folder;
every link left out is named, so that a link such as `notes.md -> ../directory.yaml` cannot publish what lies
outside the folder. A followed link is another name for its target: the ACL manifest labels it by the target's
place (`labelled_as`), so `public/bands.txt -> ../hr/bands.txt` cannot publish what `hr/*` restricts.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FolderEntry:
    """A regular file to read (`skipped` empty), or a link that was left out and why."""

    path: Path
    relative: str
    skipped: str = ""
    labelled_as: str = ""
    """The file's real path inside the folder, whose ACL rules apply (a followed link's target); '' when skipped."""


def _inside(target: Path, root: Path) -> bool:
    return target == root or root in target.parents


def walk_folder(folder: Path, suffixes: set[str], follow_links: bool = False) -> Iterator[FolderEntry]:
    """Every file below `folder` with one of `suffixes` (lower case), in a stable order, and the links left out."""
    root = folder.resolve()
    # each folder to read with the real folders above it on its path: a link to one of those would loop
    pending: list[tuple[Path, str, frozenset[Path]]] = [(root, "", frozenset({root}))]
    found: list[FolderEntry] = []
    while pending:
        directory, prefix, above = pending.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            relative = f"{prefix}{entry.name}"
            path = Path(directory) / entry.name
            if entry.is_symlink():
                target = path.resolve()
                if not (target.is_dir() or path.suffix.lower() in suffixes or target.suffix.lower() in suffixes):
                    continue  # a link to a file of another kind, like any such file
                if not follow_links:
                    found.append(FolderEntry(path, relative, "a symbolic link; not followed (--follow-links "
                                             "follows links that stay inside the folder)"))
                elif not _inside(target, root):
                    found.append(FolderEntry(path, relative, "a symbolic link that leaves the folder; not followed"))
                elif target.is_dir():
                    if target in above:
                        found.append(FolderEntry(path, relative, "a symbolic link to a folder above it; not followed"))
                    else:
                        pending.append((target, relative + "/", above | {target}))
                elif target.is_file() and target.suffix.lower() in suffixes:
                    found.append(FolderEntry(target, relative, labelled_as=target.relative_to(root).as_posix()))
                else:
                    found.append(FolderEntry(path, relative, "a symbolic link to something that is not a document"))
                continue
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode):
                real = path.resolve()
                pending.append((real, relative + "/", above | {real}))
            elif stat.S_ISREG(mode) and path.suffix.lower() in suffixes:
                # `directory` is a real folder (a followed link's target included): this is the file's real place
                found.append(FolderEntry(path, relative, labelled_as=path.relative_to(root).as_posix()))
    yield from sorted(found, key=lambda e: e.relative)
