"""Read documents from a JSONL file or a folder of .md, .txt, .html and .pdf files.

Loaders yield `Document`s and `LoadProblem`s; a bad file or line is reported with its location. A JSONL document's
default `source` is the file's real path, a folder document's its path inside the folder, and `origin` is the real
path of the file or folder: how a path is spelled never changes either.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.errors import IngestError
from boundloop.retrieval.folder_walk import walk_folder
from boundloop.retrieval.html_text import html_text
from boundloop.retrieval.pdf_text import read_pdf

FOLDER_SUFFIXES = {".md", ".markdown", ".txt", ".html", ".htm", ".pdf"}
MANIFEST_NAMES = ("acl.json", "acl.yaml", "acl.yml")
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.DOTALL)

LoadItem = Document | LoadProblem


def load_path(path: Path, follow_links: bool = False) -> Iterator[LoadItem]:
    """Documents from a JSONL file or a folder; anything else is an `IngestError` before anything is read."""
    if path.is_dir():
        return load_folder(path, follow_links)
    if path.is_file() and path.suffix in {".jsonl", ".ndjson"}:
        return load_jsonl(path)
    if not path.exists():
        raise IngestError(f"no such file or folder: {path}")
    raise IngestError(f"{path}: expected a .jsonl file or a folder of .md/.txt/.html/.pdf files")


def _acl_list(value: Any) -> tuple[str, ...] | None:
    """A validated ACL, or None when the value is not a list of non-empty strings."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(g, str) and g.strip() for g in value):
        return None
    return tuple(sorted({g.strip() for g in value}))


def load_jsonl(path: Path) -> Iterator[LoadItem]:
    """One document per line: {"id", "title", "text", "acl", "source"?, "metadata"?}; a repeated id is a bad line."""
    origin = str(path.resolve())
    first_line: dict[str, int] = {}
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
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
    acl: tuple[str, ...] = ()
    if row.get("acl") is not None:  # absent or null: no ACL (`--default-acl` applies); [] stays visible to nobody
        parsed = _acl_list(row["acl"])
        if parsed is None:
            return LoadProblem(where, "'acl' must be a list of group names")
        acl = parsed
    metadata = row.get("metadata") or {}
    if not isinstance(metadata, dict):
        return LoadProblem(where, "'metadata' must be an object")
    return Document(
        doc_id=row["id"].strip(),
        title=str(row.get("title") or row["id"]),
        text=row["text"],
        acl=acl,
        source=str(row.get("source") or origin),
        metadata=metadata,
        origin=origin,
        acl_given=row.get("acl") is not None,
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
            raw = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
        except (OSError, json.JSONDecodeError, yaml.YAMLError) as exc:
            raise IngestError(f"ACL manifest {path} cannot be read: {exc}") from None
        if not isinstance(raw, dict):
            raise IngestError(f"ACL manifest {path} must map file globs to lists of groups")
        rules: list[tuple[str, tuple[str, ...]]] = []
        for pattern, groups in raw.items():
            acl = _acl_list(groups)
            if acl is None:
                raise IngestError(f"ACL manifest {path}: {pattern!r} must map to a list of group names")
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
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
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


def load_file(path: Path, relative: str, manifest: AclManifest, origin: str = "") -> LoadItem:
    """One file of a folder as a document, or the problem that stopped it."""
    where = str(path)
    try:
        pages: tuple[str, ...] | None = None
        meta: dict[str, Any] = {}
        title = ""
        if path.suffix.lower() == ".pdf":
            title, pages = read_pdf(path)
            body = "\n\n".join(pages)
        else:
            raw = path.read_text(encoding="utf-8")
            meta, body = _split_front_matter(raw, relative)
            title = ""
            if path.suffix.lower() in {".html", ".htm"}:
                title, body = html_text(body)
            title = title or _first_heading(body)
    except UnicodeDecodeError:
        return LoadProblem(where, "not UTF-8 text", relative)
    except (OSError, ValueError) as exc:
        return LoadProblem(where, str(exc), relative)
    if not body.strip():
        return LoadProblem(where, "no text", relative)
    acl: tuple[str, ...] | None
    if "acl" in meta:
        acl = _acl_list(meta["acl"])
        if acl is None:
            return LoadProblem(where, "front matter 'acl' must be a list of group names", relative)
    else:
        acl = manifest.acl_for(relative)
    doc_id = str(meta.get("id") or relative.rsplit(".", 1)[0])
    extra = {k: v for k, v in meta.items() if k not in {"id", "title", "acl"}}
    return Document(
        doc_id=doc_id,
        title=str(meta.get("title") or title or path.stem),
        text=body.strip(),
        acl=acl or (),
        source=relative,
        metadata=json.loads(json.dumps(extra, default=str)),
        pages=pages,
        origin=origin,
        acl_given=acl is not None,
    )


def load_folder(folder: Path, follow_links: bool = False) -> Iterator[LoadItem]:
    """Every supported file below `folder`, in a stable order; links that are not followed come back as problems."""
    manifest = AclManifest.find(folder)
    origin = str(folder.resolve())
    for entry in walk_folder(folder, FOLDER_SUFFIXES, follow_links):
        if entry.skipped:
            yield LoadProblem(str(folder / entry.relative), entry.skipped, entry.relative)
        else:
            yield load_file(entry.path, entry.relative, manifest, origin)
