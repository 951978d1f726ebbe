"""Real text for the retrieval benchmark, read from the shared evaluation data (never copied into the repo)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Document

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def hotpot_rows(data: Path, limit: int | None = None) -> list[dict[str, Any]]:
    return jsonl(data / "hotpotqa" / "dev.jsonl")[:limit]


def _hotpot_paragraphs(rows: list[dict[str, Any]]) -> Iterator[tuple[str, list[str]]]:
    for row in rows:
        yield from zip(row["context"]["title"], row["context"]["sentences"], strict=True)


def _join(sentences: list[str]) -> str:
    return " ".join(s.strip() for s in sentences)


def ingest_documents(data: Path, n: int) -> list[Document]:
    """`n` documents of about 100 words: consecutive sentences of distinct HotpotQA dev paragraphs (cycled)."""
    paragraphs = dict(_hotpot_paragraphs(hotpot_rows(data)))
    stream = itertools.cycle((title, s.strip()) for title, sentences in paragraphs.items() for s in sentences)
    documents: list[Document] = []
    while len(documents) < n:
        title, words, parts = "", 0, []
        while words < 90:
            sentence_title, sentence = next(stream)
            title, words = title or sentence_title, words + len(sentence.split())
            parts.append(sentence)
        documents.append(Document(f"ingest-{len(documents)}", title, " ".join(parts), ("all-staff",), "hotpotqa"))
    return documents


def pooled_hotpot(rows: list[dict[str, Any]]) -> list[Document]:
    """The paragraphs of all `rows` as one corpus: doc id = title, first occurrence kept, visible to group 'all'."""
    pool: dict[str, Document] = {}
    for title, sentences in _hotpot_paragraphs(rows):
        pool.setdefault(title, Document(title, title, _join(sentences), ("all",), "hotpotqa/dev"))
    return list(pool.values())


def _source_texts(data: Path) -> Iterator[tuple[str, str]]:
    for split in ("dev", "test"):
        for title, sentences in _hotpot_paragraphs(jsonl(data / "hotpotqa" / f"{split}.jsonl")):
            yield title, _join(sentences)
        for row in jsonl(data / "musique" / f"{split}.jsonl"):
            yield from ((p["title"], p["paragraph_text"]) for p in row["paragraphs"])
        for row in jsonl(data / "2wikimultihopqa" / f"{split}.jsonl"):
            yield from ((title, _join(sentences)) for title, sentences in row.get("context", []))
    squad = json.loads((data / "unanswerable" / "squad2_dev_normans_rhine.json").read_text(encoding="utf-8"))
    for article in squad["data"]:
        yield from ((article["title"], p["context"]) for p in article["paragraphs"])
    for folder in ("enterprise/sec10q", "enterprise/contoso"):
        for row in jsonl(data / folder / "pages.jsonl"):
            yield f"{row['doc']} page {row['page']}", row["text"]


def distinct_passages(data: Path) -> list[tuple[str, str]]:
    """Every distinct (title, passage) of the shared data; long texts cut by the real chunker into ~100 words."""
    seen: dict[tuple[str, str], None] = {}
    for title, text in _source_texts(data):
        for chunk in chunk_document(Document("p", title, text, ("x",)), max_words=100, overlap_words=0):
            seen.setdefault((chunk.title, chunk.text), None)
    return list(seen)
