"""Meaning-level closeness of a question and a passage, from the offline MiniLM encoder.

The reader always uses the bundled int8 MiniLM (whatever encoder retrieval uses), so the answerability model sees
the cosines it was fitted on. Vectors of recent texts are kept: evaluate and synthesise read the same passages.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np

CACHE_SIZE = 2048
READER_ENCODER = "minilm"


class EncoderSimilarity:
    """Cosines between a question and texts; an encoder is loaded on first use unless one is given."""

    def __init__(self, encoder: Any = None) -> None:
        self._encoder = encoder
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def _encode(self, texts: list[str]) -> list[np.ndarray]:
        with self._lock:
            todo = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if todo:
            if self._encoder is None:
                from boundloop.retrieval.embeddings import build_embeddings

                self._encoder = build_embeddings(READER_ENCODER)
            fresh = self._encoder.encode(todo)
            with self._lock:
                for text, vector in zip(todo, fresh, strict=True):
                    self._vectors[text] = vector
                while len(self._vectors) > CACHE_SIZE:
                    self._vectors.popitem(last=False)
        with self._lock:
            return [self._vectors[t] if t in self._vectors else self._encoder.encode([t])[0] for t in texts]

    def __call__(self, question: str, texts: list[str]) -> list[float]:
        first, *rest = self._encode([question, *texts])
        return [float(first @ v) for v in rest]
