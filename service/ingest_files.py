"""`POST /ingest` with documents as files (.docx, .pdf, .msg, ...): read as folder ingest reads them, all or nothing.

The files of one upload are read into a private temporary folder under their own names (without any folder a
client put in the name), with the upload's `acl` as the folder's ACL manifest: a Markdown file's front matter may
name its own, as in a folder, and a message's attachments take the message's. Any file that cannot be read (a type
ingest does not read, damaged, password-protected, macro-enabled, mislabelled, too large) refuses the whole upload
with its name and reason; nothing is written. Documents' sources are `api:<admin>:<file name>`.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath, PureWindowsPath

from boundloop.retrieval.acl_manifest import AclManifest, acl_list
from boundloop.retrieval.backend import Encoder, IndexBackend
from boundloop.retrieval.document_limit import max_document_bytes
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.file_loader import FOLDER_SUFFIXES, FileJob, LoadItem, load_entry
from boundloop.retrieval.ingest import IngestReport, ingest
from boundloop.retrieval.parse_pool import ordered_map
from boundloop.service.errors import InvalidInput
from boundloop.service.ingest_upload import UploadRejected


@dataclass(frozen=True)
class UploadedFile:
    """One file of a multipart upload: the name the client gave it and its bytes."""

    name: str
    data: bytes


def upload_acl(value: str | None) -> tuple[str, ...] | None:
    """The form's `acl` field: a JSON list of group names, as a JSONL line's `acl`; None when absent."""
    if value is None:
        return None
    try:
        parsed = acl_list(json.loads(value))
    except json.JSONDecodeError:
        raise InvalidInput('\'acl\' must be a JSON list of group names, such as ["finance"]') from None
    if isinstance(parsed, str):
        raise InvalidInput(f"'acl' {parsed}")
    return parsed


def _file_name(name: str) -> str:
    """The name without any folder the client put in it ('../../x.md' is 'x.md')."""
    return PurePosixPath(PureWindowsPath(name).name).name.strip()


def _checked_names(files: list[UploadedFile]) -> list[str]:
    """Each file's name; an upload with a nameless file, a type ingest does not read or a repeated name is refused."""
    problems: list[tuple[str, str]] = []
    names: list[str] = []
    for number, upload in enumerate(files, start=1):
        name = _file_name(upload.name)
        where = name or f"file {number}"
        if not name:
            problems.append((where, "the file has no name (its type is read from the name's suffix)"))
        elif PurePosixPath(name).suffix.lower() not in FOLDER_SUFFIXES:
            problems.append((where, "not a type ingest reads (" + " ".join(sorted(FOLDER_SUFFIXES)) + ")"))
        elif name in names:
            problems.append((where, "two files of the upload have this name"))
        names.append(name)
    if problems:
        raise UploadRejected(problems, "file(s)")
    return names


def _as_uploaded(items: list[LoadItem], prefix: str) -> Iterator[Document]:
    for item in items:
        assert isinstance(item, Document)  # the caller refused the upload at any problem
        yield replace(item, source=f"{prefix}{item.source}", origin="")


def ingest_files(backend: IndexBackend, encoder: Encoder, files: list[UploadedFile], acl: tuple[str, ...] | None,
                 prefix: str) -> IngestReport:
    """Read every file (and a message's attachments); any problem refuses the upload, else one transaction."""
    if not files:
        raise InvalidInput("the upload holds no files")
    names = _checked_names(files)
    manifest = AclManifest([("*", acl)] if acl is not None else [])
    with tempfile.TemporaryDirectory(prefix="boundloop-ingest-") as folder:
        jobs = []
        for name, upload in zip(names, files, strict=True):
            path = Path(folder) / name
            path.write_bytes(upload.data)
            jobs.append(FileJob(path, name, manifest, "", max_document_bytes()))
        items = [item for found in ordered_map(load_entry, jobs) for item in found]
    problems = [(item.source or item.location, item.message) for item in items if isinstance(item, LoadProblem)]
    ids: dict[str, str] = {}
    for item in items:
        if isinstance(item, Document):
            if item.doc_id in ids:
                problems.append((item.source, f"document id {item.doc_id!r} is also {ids[item.doc_id]}'s"))
            ids.setdefault(item.doc_id, item.source)
    if problems:
        raise UploadRejected(problems, "file(s)")
    return ingest(backend, encoder, _as_uploaded(items, prefix), show_progress=False)
