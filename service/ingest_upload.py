"""Turns an uploaded JSONL body into documents, all or nothing: any bad line refuses the whole upload."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from boundloop.retrieval.backend import Encoder, IndexBackend
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.ingest import IngestReport, ingest, refusing_problems
from boundloop.retrieval.loaders import LoadItem, load_jsonl
from boundloop.service.errors import InvalidInput


class UploadRejected(InvalidInput):
    """Lines (or files) of the upload that cannot be ingested, each with why; nothing was written."""

    def __init__(self, problems: list[tuple[str, str]], what: str = "line(s)") -> None:
        super().__init__(f"{len(problems)} {what} cannot be ingested; nothing was written")
        self.problems = problems


def check_upload(path: Path) -> None:
    """Read the uploaded JSONL once without keeping it: any bad line (too large, too) refuses the whole upload."""
    problems = [(f"line {item.location.rsplit(':', 1)[-1]}", item.message)
                for item in load_jsonl(path) if isinstance(item, LoadProblem)]  # a repeated id is a bad line too
    if problems:
        raise UploadRejected(problems)


def _as_uploaded(items: Iterable[LoadItem], source: str) -> Iterator[LoadItem]:
    """Lines without their own `source` get `source`: the temporary file is no document's source or origin."""
    for item in items:
        yield replace(item, source=source if item.source == item.origin else item.source, origin="") \
            if isinstance(item, Document) else item


def ingest_upload(backend: IndexBackend, encoder: Encoder, data: bytes, source: str) -> IngestReport:
    """Check every line, then stream the documents into one transaction."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("the upload is not UTF-8 text") from None
    if not text.strip():
        raise InvalidInput("the upload holds no documents")
    del text
    with tempfile.TemporaryDirectory(prefix="boundloop-ingest-") as folder:
        path = Path(folder) / "upload.jsonl"
        path.write_bytes(data)
        check_upload(path)
        return ingest(backend, encoder, _as_uploaded(refusing_problems(load_jsonl(path)), source),
                      show_progress=False)
