"""Turns an uploaded JSONL body into documents, all or nothing: any bad line refuses the whole upload."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from boundloop.retrieval.backend import Encoder, IndexBackend
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.ingest import IngestReport, ingest
from boundloop.retrieval.loaders import load_jsonl
from boundloop.service.errors import InvalidInput


class UploadRejected(InvalidInput):
    """Lines of the upload that cannot be ingested; nothing was written."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__(f"{len(problems)} line(s) cannot be ingested; nothing was written")
        self.problems = problems


def parse_upload(data: bytes, source: str) -> list[Document]:
    """Documents from JSONL bytes; lines without their own `source` get `source`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("the upload is not UTF-8 text") from None
    if not text.strip():
        raise InvalidInput("the upload holds no documents")
    with tempfile.TemporaryDirectory(prefix="boundloop-ingest-") as folder:
        path = Path(folder) / "upload.jsonl"
        path.write_text(text, encoding="utf-8")
        items = list(load_jsonl(path))
    problems: list[tuple[str, str]] = []  # a repeated id is a bad line too (`load_jsonl`)
    documents: list[Document] = []
    for item in items:
        if isinstance(item, LoadProblem):
            problems.append((f"line {item.location.rsplit(':', 1)[-1]}", item.message))
        else:  # the temporary file is no document's source or origin
            documents.append(replace(item, source=source if item.source == item.origin else item.source, origin=""))
    if problems:
        raise UploadRejected(problems)
    return documents


def ingest_upload(backend: IndexBackend, encoder: Encoder, data: bytes, source: str) -> IngestReport:
    """Parse, then write every document in one transaction."""
    return ingest(backend, encoder, parse_upload(data, source), show_progress=False)
