"""Read documents from a JSONL file or a folder of .md, .txt, .html, .pdf and Office files (see `formats`).

Loaders yield `Document`s and `LoadProblem`s, one at a time; a bad file or line is reported with its location. A
JSONL document's default `source` is the file's real path, a folder document's its path inside the folder, and
`origin` is the real path of the file or folder: how a path is spelled never changes either. A document larger than
`BOUNDLOOP_MAX_DOCUMENT_BYTES` is a problem, found before it is read whole; HTML comments are dropped (and counted)
from JSONL text and from Markdown, HTML and text files; an ACL is a list of group names or a problem.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import yaml

from boundloop.domain.bounded_yaml import load_yaml
from boundloop.retrieval.attachments import attachment_items
from boundloop.retrieval.document_limit import max_document_bytes, too_large
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.errors import IngestError
from boundloop.retrieval.folder_walk import walk_folder
from boundloop.retrieval.formats.dispatch import OFFICE_SUFFIXES, read_office
from boundloop.retrieval.html_comments import strip_comments
from boundloop.retrieval.html_text import html_text
from boundloop.retrieval.pdf_text import read_pdf

FOLDER_SUFFIXES = {".md", ".markdown", ".txt", ".html", ".htm", ".pdf", *OFFICE_SUFFIXES}
MANIFEST_NAMES = ("acl.json", "acl.yaml", "acl.yml")
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.DOTALL)
READ_STEP = 1 << 20  # bytes read at a time past an oversized JSONL line

LoadItem = Document | LoadProblem


def load_path(path: Path, follow_links: bool = False) -> Iterator[LoadItem]:
    """Documents from a JSONL file or a folder; anything else is an `IngestError` before anything is read."""
    if path.is_dir():
        return load_folder(path, follow_links)
    if path.is_file() and path.suffix in {".jsonl", ".ndjson"}:
        return load_jsonl(path)
    if not path.exists():
        raise IngestError(f"no such file or folder: {path}")
    raise IngestError(f"{path}: expected a .jsonl file or a folder of documents (.md, .pdf, .docx, ...)")


def _acl_list(value: Any) -> tuple[str, ...] | str:
    """A validated ACL, or why the value is not one: it must be a list of non-empty strings.

    A bare string is refused rather than read as one group (or as its characters): `acl: finance` and
    `acl: [finance]` look alike, and a reading that guesses wrong publishes a document.
    """
    if isinstance(value, str):
        return f"must be a list of group names, not the string {value[:40]!r} (write [{value[:40]!r}])"
    if not isinstance(value, list):
        return f"must be a list of group names, not {type(value).__name__}"
    if not all(isinstance(g, str) and g.strip() for g in value):
        return "must be a list of group names (non-empty strings)"
    return tuple(sorted({g.strip() for g in value}))


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


class AclManifest:
    """An acl.json / acl.yaml in a folder, mapping file globs (relative to the folder) to groups."""

    def __init__(self, rules: list[tuple[str, tuple[str, ...]]]) -> None:
        self.rules = rules

    @classmethod
    def find(cls, folder: Path) -> AclManifest:
        root = folder.resolve()
        for name in MANIFEST_NAMES:
            path = folder / name
            if path.is_file():
                if path.is_symlink() and root not in path.resolve().parents:
                    raise IngestError(f"ACL manifest {path} is a symbolic link out of the folder; not read")
                return cls.load(path)
        return cls([])

    @classmethod
    def load(cls, path: Path) -> AclManifest:
        try:
            text = path.read_text(encoding="utf-8")
            raw = json.loads(text) if path.suffix == ".json" else load_yaml(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, yaml.YAMLError) as exc:
            raise IngestError(f"ACL manifest {path} cannot be read: {exc}") from None
        if not isinstance(raw, dict):
            raise IngestError(f"ACL manifest {path} must map file globs to lists of groups")
        rules: list[tuple[str, tuple[str, ...]]] = []
        for pattern, groups in raw.items():
            acl = _acl_list(groups)
            if isinstance(acl, str):
                raise IngestError(f"ACL manifest {path}: {pattern!r} {acl}")
            rules.append((str(pattern), acl))
        return cls(rules)

    def acl_for(self, relative: str) -> tuple[str, ...] | None:
        """The groups of the first glob that matches; None when none matches (no ACL: visible to nobody)."""
        name = relative.rsplit("/", 1)[-1]
        for pattern, acl in self.rules:
            if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(name, pattern):
                return acl
        return None


def _split_front_matter(text: str, where: str) -> tuple[dict[str, Any], str]:
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    try:
        meta = load_yaml(match.group(1)) or {}
    except yaml.YAMLError as exc:  # and `YamlRefused`: an alias bomb, a recursive alias
        raise ValueError(f"front matter is not valid YAML: {exc}") from None
    if not isinstance(meta, dict):
        raise ValueError("front matter must be a YAML mapping")
    return meta, text[match.end():]


def _first_heading(body: str) -> str:
    for line in body.splitlines():
        stripped = line.strip()
        if stripped:
            return stripped.lstrip("#").strip()
    return ""


def load_file(path: Path, relative: str, manifest: AclManifest, origin: str = "", limit: int | None = None) -> LoadItem:
    """One file of a folder as a document, or the problem that stopped it (a file over `limit` bytes is not read)."""
    where = str(path)
    limit = limit or max_document_bytes()
    comments = 0
    try:
        pages: tuple[str, ...] | None = None
        meta: dict[str, Any] = {}
        title = ""
        size = path.stat().st_size
        if size > limit:
            return LoadProblem(where, too_large("the file", size, limit), relative)
        if path.suffix.lower() == ".pdf":
            title, pages = read_pdf(path)
            body = "\n\n".join(pages)
        elif path.suffix.lower() in OFFICE_SUFFIXES:  # properties (author, dates) are metadata, as front matter
            office = read_office(path)
            title, pages, body, meta = office.title, office.pages, office.text, dict(office.metadata)
        else:
            raw = path.read_text(encoding="utf-8")
            meta, body = _split_front_matter(raw, relative)
            body, comments = strip_comments(body)
            if path.suffix.lower() in {".html", ".htm"}:
                title, body = html_text(body)
            title = title or _first_heading(body)
    except UnicodeDecodeError:
        return LoadProblem(where, "not UTF-8 text", relative)
    except (OSError, ValueError) as exc:
        return LoadProblem(where, str(exc), relative)
    if not body.strip():
        return LoadProblem(where, "no text" + (" but HTML comments" if comments else ""), relative)
    acl: tuple[str, ...] | None
    if "acl" in meta:
        parsed = _acl_list(meta["acl"])
        if isinstance(parsed, str):
            return LoadProblem(where, f"front matter 'acl' {parsed}", relative)
        acl = parsed
    else:
        acl = manifest.acl_for(relative)
    doc_id = str(meta.get("id") or relative.rsplit(".", 1)[0])
    extra = {k: v for k, v in meta.items() if k not in {"id", "title", "acl"}}
    title, title_comments = strip_comments(str(meta.get("title") or title or path.stem))
    return Document(
        doc_id=doc_id,
        title=title if title.strip() else path.stem,
        text=body.strip(),
        acl=acl or (),
        source=relative,
        metadata=json.loads(json.dumps(extra, default=str)),
        pages=pages,
        origin=origin,
        acl_given=acl is not None,
        comments_stripped=comments + title_comments,
    )


def load_folder(folder: Path, follow_links: bool = False) -> Iterator[LoadItem]:
    """Every supported file below `folder`, in a stable order; links that are not followed come back as problems.

    The ACL manifest and the size limit are read now: a bad one stops the ingest before any document is read.
    """
    manifest = AclManifest.find(folder)
    return _folder_items(folder, manifest, follow_links, max_document_bytes())


def _folder_items(folder: Path, manifest: AclManifest, follow_links: bool, limit: int) -> Iterator[LoadItem]:
    origin = str(folder.resolve())
    for entry in walk_folder(folder, FOLDER_SUFFIXES, follow_links):
        if entry.skipped:
            yield LoadProblem(str(folder / entry.relative), entry.skipped, entry.relative)
        else:
            item = load_file(entry.path, entry.relative, manifest, origin, limit)
            yield item
            if isinstance(item, Document) and entry.path.suffix.lower() == ".eml":
                yield from attachment_items(item, entry.path, FOLDER_SUFFIXES,
                                            lambda file, relative: load_file(file, relative, manifest, origin, limit))
