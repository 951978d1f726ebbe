"""A message's attachments as documents of their own: read like files of the folder, under the message's ACL.

An attachment is readable by exactly those who may read the message that carries it, whatever it says of itself
(front matter naming another ACL is overruled); its id and source sit under the message's ('move/plan.docx').
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path, PurePosixPath, PureWindowsPath

from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.formats.office_text import Attachment

LoadFile = Callable[[Path, str], Document | LoadProblem]
"""Reads one file as the folder loader does: (path on disk, path inside the folder) -> a document or a problem."""


def _safe_name(name: str) -> str:
    """The attachment's file name without any folder a sender put in it ('../../x.md' is 'x.md')."""
    return PurePosixPath(PureWindowsPath(name).name).name.strip() or "attachment"


def attachment_items(
    message: Document, where: str, attachments: tuple[Attachment, ...], suffixes: set[str], load: LoadFile
) -> Iterator[Document | LoadProblem]:
    """The `attachments` of the message at `where` whose type ingest reads, as documents under `message`'s ACL."""
    with tempfile.TemporaryDirectory(prefix="boundloop-attachments-") as folder:
        for number, attachment in enumerate(attachments):
            name = _safe_name(attachment.name)
            suffix = PurePosixPath(name).suffix.lower()
            if suffix not in suffixes:
                continue  # a type ingest does not read, as a file of that type in the folder
            relative = f"{message.source}/{name}"
            file = Path(folder) / f"{number}{suffix}"
            file.write_bytes(attachment.data)
            item = load(file, relative)
            if isinstance(item, LoadProblem):
                yield LoadProblem(f"{where} (attachment {name})", item.message, relative)
            else:
                yield replace(item, doc_id=f"{message.doc_id}/{name}", acl=message.acl, acl_given=message.acl_given,
                              source=relative, origin=message.origin)
