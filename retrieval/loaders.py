"""Read documents from a JSONL file or a folder of .md, .txt, .html, .pdf and Office files (see `formats`).

Loaders yield `Document`s and `LoadProblem`s, one at a time; a bad file or line is reported with its location. A
JSONL document's default `source` is the file's real path, a folder document's its path inside the folder, and
`origin` is the real path of the file or folder: how a path is spelled never changes either. A document larger than
`BOUNDLOOP_MAX_DOCUMENT_BYTES` is a problem, found before it is read whole; HTML comments are dropped (and counted)
from JSONL text and from Markdown, HTML and text files; an ACL is a list of group names or a problem.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from boundloop.retrieval.acl_manifest import AclManifest
from boundloop.retrieval.acl_manifest import acl_list as _acl_list
from boundloop.retrieval.document_limit import max_document_bytes, too_large
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.errors import IngestError
from boundloop.retrieval.file_loader import FOLDER_SUFFIXES, FileJob, LoadItem, load_entry, load_file
from boundloop.retrieval.folder_walk import walk_folder
from boundloop.retrieval.html_comments import strip_comments
from boundloop.retrieval.parse_pool import ordered_map

__all__ = ["FOLDER_SUFFIXES", "AclManifest", "LoadItem", "load_file", "load_folder", "load_jsonl", "load_path"]
READ_STEP = 1 << 20  # bytes read at a time past an oversized JSONL line


def load_path(path: Path, follow_links: bool = False) -> Iterator[LoadItem]:
    """Documents from a JSONL file or a folder; anything else is an `IngestError` before anything is read."""
    if path.is_dir():
        return load_folder(path, follow_links)
    if path.is_file() and path.suffix in {".jsonl", ".ndjson"}:
        return load_jsonl(path)
    if not path.exists():
        raise IngestError(f"no such file or folder: {path}")
    raise IngestError(f"{path}: expected a .jsonl file or a folder of documents (.md, .pdf, .docx, ...)")


def _lines(handle: BinaryIO, limit: int) -> Iterator[tuple[int, bytes | int]]:
    """(number, line) for each line of `handle`; (number, size) for a line over `limit` bytes, never held whole."""
    number = 0
    while raw := handle.readline(limit + 2):  # the line, and a line break
        number += 1
        if len(raw.rstrip(b"\r\n")) <= limit:
            yield number, raw
            continue
        size = len(raw)
        while not raw.endswith(b"\n") and (raw := handle.readline(READ_STEP)):
            size += len(raw)
        yield number, size - (len(raw) - len(raw.rstrip(b"\r\n")))


def load_jsonl(path: Path, limit: int | None = None) -> Iterator[LoadItem]:
    """One document per line: {"id", "title", "text", "acl", "source"?, "metadata"?}; a repeated id is a bad line.

    A line over `limit` bytes (default: `BOUNDLOOP_MAX_DOCUMENT_BYTES`) is a bad line, skipped as it is read.
    """
    return _jsonl_items(path, limit or max_document_bytes())  # the setting is read now: a bad one stops at once


def _jsonl_items(path: Path, limit: int) -> Iterator[LoadItem]:
    origin = str(path.resolve())
    first_line: dict[str, int] = {}
    with path.open("rb") as handle:
        for number, read in _lines(handle, limit):
            where = f"{path}:{number}"
            if isinstance(read, int):
                yield LoadProblem(where, too_large("the line", read, limit))
                continue
            line = read.decode("utf-8", errors="replace")
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                yield LoadProblem(where, f"broken JSON: {exc.msg} (column {exc.colno})")
                continue
            item = _document_from_row(row, where, origin)
            if isinstance(item, Document):
                if item.doc_id in first_line:
                    item = LoadProblem(where, f"duplicate document id {item.doc_id!r} (first on line "
                                              f"{first_line[item.doc_id]})")
                else:
                    first_line[item.doc_id] = number
            yield item


def _document_from_row(row: Any, where: str, origin: str) -> LoadItem:
    if not isinstance(row, dict):
        return LoadProblem(where, "expected a JSON object")
    missing = [k for k in ("id", "text") if not isinstance(row.get(k), str) or not row[k].strip()]
    if missing:
        return LoadProblem(where, f"missing or empty string field(s): {', '.join(missing)}")
    text, comments = strip_comments(row["text"])
    if not text.strip():
        return LoadProblem(where, "'text' holds nothing but HTML comments")
    title, title_comments = strip_comments(str(row.get("title") or row["id"]))
    acl: tuple[str, ...] = ()
    if row.get("acl") is not None:  # absent or null: no ACL (`--default-acl` applies); [] stays visible to nobody
        parsed = _acl_list(row["acl"])
        if isinstance(parsed, str):
            return LoadProblem(where, f"'acl' {parsed}")
        acl = parsed
    metadata = row.get("metadata") or {}
    if not isinstance(metadata, dict):
        return LoadProblem(where, "'metadata' must be an object")
    return Document(
        doc_id=row["id"].strip(),
        title=title if title.strip() else row["id"],
        text=text,
        acl=acl,
        source=str(row.get("source") or origin),
        metadata=metadata,
        origin=origin,
        acl_given=row.get("acl") is not None,
        comments_stripped=comments + title_comments,
    )


def load_folder(folder: Path, follow_links: bool = False) -> Iterator[LoadItem]:
    """Every supported file below `folder`, in a stable order; links that are not followed come back as problems.

    The ACL manifest and the size limit are read now: a bad one stops the ingest before any document is read.
    """
    manifest = AclManifest.find(folder)
    return _folder_items(folder, manifest, follow_links, max_document_bytes())


def _folder_items(folder: Path, manifest: AclManifest, follow_links: bool, limit: int) -> Iterator[LoadItem]:
    """The folder's files parsed on every core (`parse_pool`), yielded in the walk's order."""
    origin = str(folder.resolve())
    jobs = (FileJob(folder / e.relative if e.skipped else e.path, e.relative, manifest, origin, limit, e.skipped,
                    e.labelled_as)
            for e in walk_folder(folder, FOLDER_SUFFIXES, follow_links))
    for items in ordered_map(load_entry, jobs):
        yield from items
