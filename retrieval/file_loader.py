"""One file of a folder as a document: Markdown, text and HTML with front matter, PDF, and Office files.

A message (.eml, .msg) comes with its attachments of a known type, read as documents of their own under its ACL.
`load_entry` reads one file and what it carries; it runs in the parse workers (`parse_pool`), so everything it
takes and returns pickles.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from boundloop.domain.bounded_yaml import load_yaml
from boundloop.retrieval.acl_manifest import AclManifest, acl_list
from boundloop.retrieval.attachments import attachment_items
from boundloop.retrieval.document_limit import max_document_bytes, too_large
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.formats.dispatch import MAIL_SUFFIXES, OFFICE_SUFFIXES, read_office
from boundloop.retrieval.formats.office_text import Attachment
from boundloop.retrieval.html_comments import strip_comments
from boundloop.retrieval.html_text import html_text
from boundloop.retrieval.pdf_text import read_pdf

FOLDER_SUFFIXES = {".md", ".markdown", ".txt", ".html", ".htm", ".pdf", *OFFICE_SUFFIXES}
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.DOTALL)

LoadItem = Document | LoadProblem


@dataclass(frozen=True)
class FileJob:
    """What reading one file needs: where it is, its path inside the folder, the folder's ACL rules and limits."""

    path: Path
    relative: str
    manifest: AclManifest
    origin: str
    limit: int
    skipped: str = ""
    """Why the walk left the file out (a symbolic link not followed); then `path` is the link as spelled."""
    labelled_as: str = ""
    """The path the ACL manifest labels the file by, when not `relative`: a followed link's target's."""


def _split_front_matter(text: str) -> tuple[dict[str, Any], str]:
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


def _read(path: Path, relative: str, manifest: AclManifest, origin: str,
          limit: int, labelled_as: str = "") -> tuple[LoadItem, tuple[Attachment, ...]]:
    """The file as a document (or the problem that stopped it), and the files it carries (a message's).

    Without front matter naming its ACL, the manifest labels it by `labelled_as` (else `relative`).
    """
    where = str(path)
    comments = 0
    attachments: tuple[Attachment, ...] = ()
    try:
        pages: tuple[str, ...] | None = None
        sheets: tuple[str, ...] | None = None
        meta: dict[str, Any] = {}
        title = ""
        size = path.stat().st_size
        if size > limit:
            return LoadProblem(where, too_large("the file", size, limit), relative), ()
        if path.suffix.lower() == ".pdf":
            title, pages, meta = read_pdf(path)
            body = "\n\n".join(pages)
        elif path.suffix.lower() in OFFICE_SUFFIXES:  # properties (author, dates) are metadata, as front matter
            office = read_office(path)
            title, pages, body, meta = office.title, office.pages, office.text, dict(office.metadata)
            sheets, attachments = office.sheets, office.attachments
        else:
            raw = path.read_text(encoding="utf-8")
            meta, body = _split_front_matter(raw)
            body, comments = strip_comments(body)
            if path.suffix.lower() in {".html", ".htm"}:
                title, body = html_text(body)
            title = title or _first_heading(body)
    except UnicodeDecodeError:
        return LoadProblem(where, "not UTF-8 text", relative), ()
    except (OSError, ValueError) as exc:
        return LoadProblem(where, str(exc), relative), ()
    if not body.strip():
        return LoadProblem(where, "no text" + (" but HTML comments" if comments else ""), relative), ()
    acl: tuple[str, ...] | None
    if "acl" in meta:
        parsed = acl_list(meta["acl"])
        if isinstance(parsed, str):
            return LoadProblem(where, f"front matter 'acl' {parsed}", relative), ()
        acl = parsed
    else:
        acl = manifest.acl_for(labelled_as or relative)
    doc_id = str(meta.get("id") or relative.rsplit(".", 1)[0])
    extra = {k: v for k, v in meta.items() if k not in {"id", "title", "acl"}}
    title, title_comments = strip_comments(str(meta.get("title") or title or path.stem))
    document = Document(
        doc_id=doc_id,
        title=title if title.strip() else path.stem,
        text=body.strip(),
        acl=acl or (),
        source=relative,
        metadata=json.loads(json.dumps(extra, default=str)),
        pages=pages,
        sheets=sheets,
        origin=origin,
        acl_given=acl is not None,
        comments_stripped=comments + title_comments,
    )
    return document, attachments


def load_file(path: Path, relative: str, manifest: AclManifest, origin: str = "", limit: int | None = None) -> LoadItem:
    """One file of a folder as a document, or the problem that stopped it (a file over `limit` bytes is not read)."""
    return _read(path, relative, manifest, origin, limit or max_document_bytes())[0]


def load_entry(job: FileJob) -> list[LoadItem]:
    """One file as its document (or problem), then a message's attachments of a known type, in order."""
    if job.skipped:
        return [LoadProblem(str(job.path), job.skipped, job.relative)]
    item, attachments = _read(job.path, job.relative, job.manifest, job.origin, job.limit, job.labelled_as)
    if not isinstance(item, Document) or job.path.suffix.lower() not in MAIL_SUFFIXES or not attachments:
        return [item]
    return [item, *attachment_items(item, str(job.path), attachments, FOLDER_SUFFIXES,
                                    lambda file, relative: load_file(file, relative, job.manifest, job.origin,
                                                                     job.limit))]
