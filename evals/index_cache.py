"""Built eval indexes, cached on disk by what they hold, so a rerun on the same data skips the embedding."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

from boundloop.retrieval.backend import Encoder
from boundloop.retrieval.cache import cache_dir
from boundloop.retrieval.chunking import CHUNKER_VERSION
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import ingest
from boundloop.retrieval.private_files import private_folder, write_private_text
from boundloop.retrieval.sqlite_index import SqliteIndex

STAMP = "complete"
"""Written last: a folder without it is a build that did not finish."""


def default_root() -> Path:
    return cache_dir() / "eval-indexes"


def fingerprint(documents: Sequence[Document], encoder: Encoder) -> str:
    """Changes whenever the documents, their ACLs, the chunker or the encoder change."""
    digest = hashlib.sha256(f"{CHUNKER_VERSION}|{encoder.name}".encode())
    for d in documents:
        digest.update(json.dumps([d.doc_id, d.title, d.text, list(d.acl), d.source]).encode("utf-8"))
    return digest.hexdigest()


def cached_index(
    documents: Sequence[Document], encoder: Encoder, label: str, root: Path | None = None,
    show_progress: bool = True,
) -> SqliteIndex:
    """An open index of `documents`: reused when a finished build of the same content exists, else built.

    `label` (dataset, file, limit) only makes the folder name readable; the content hash decides reuse.
    A build goes to a private temporary folder and is renamed into place, so concurrent evals never share
    a half-built index.
    """
    root = root or default_root()
    name = re.sub(r"[^\w.-]+", "_", f"{label}-{encoder.name}")[:120]
    folder = root / f"{name}-{fingerprint(documents, encoder)[:16]}"
    if not (folder / STAMP).exists():
        private_folder(root)
        building = root / f".{folder.name}.{os.getpid()}.building"
        shutil.rmtree(building, ignore_errors=True)
        index = SqliteIndex(building, create=True)
        try:
            ingest(index, encoder, documents, show_progress=show_progress)
        finally:
            index.close()
        write_private_text(building / STAMP, label)
        if not (folder / STAMP).exists():  # an unfinished folder from a crash; a finished one is kept
            shutil.rmtree(folder, ignore_errors=True)
        try:
            building.rename(folder)
        except OSError:  # another process finished the same build first
            shutil.rmtree(building, ignore_errors=True)
    return SqliteIndex(folder)
