"""The bundled demo corpus: built into an index in the cache folder on first use, rebuilt when it changes."""

from __future__ import annotations

import hashlib
from pathlib import Path

from boundloop.retrieval.backend import Encoder
from boundloop.retrieval.chunk_markdown import PASSAGE_FORMAT
from boundloop.retrieval.chunking import CHUNKER_VERSION
from boundloop.retrieval.documents import Document
from boundloop.retrieval.ingest import delete, ingest
from boundloop.retrieval.loaders import load_folder
from boundloop.retrieval.private_files import write_private_text
from boundloop.retrieval.sqlite_index import SqliteIndex

STAMP = "corpus.sha256"


def corpus_fingerprint(corpus: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(corpus.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(corpus).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def ensure_demo_index(encoder: Encoder, folder: Path, corpus: Path) -> Path:
    """Build or refresh the demo index of `corpus` in `folder`; cheap when nothing changed since the last build."""
    stamp = folder / STAMP
    fingerprint = f"{corpus_fingerprint(corpus)}|{CHUNKER_VERSION}|{encoder.name}|{PASSAGE_FORMAT}"
    if stamp.exists() and stamp.read_text() == fingerprint:
        return folder
    # an index built before chunks kept their Markdown would keep its unchanged documents' chunks (and show them
    # flat): the demo's few documents are written again instead
    stale = stamp.exists() and not stamp.read_text().endswith(f"|{PASSAGE_FORMAT}")
    index = SqliteIndex(folder, create=True)
    try:
        if stale:
            delete(index, sorted(index.stored_documents()))
        items = list(load_folder(corpus))
        ingest(index, encoder, items, show_progress=True)
        present = {item.doc_id for item in items if isinstance(item, Document)}
        delete(index, sorted(set(index.stored_documents()) - present))  # documents removed from the corpus
    finally:
        index.close()
    write_private_text(stamp, fingerprint)
    return folder
