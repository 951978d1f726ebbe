"""Regenerate tests/fixtures/minilm_reference.npz: reference texts and their vectors.

The vectors are those of the PyTorch-exported int8 encoder (the one boundloop used before it was built without
PyTorch) and of the fp32 sentence-transformers model.

Needs the export extra (`pip install -e '.[export]'`); the test that reads the file needs no PyTorch.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from boundloop.retrieval.embeddings import MiniLMOnnxEmbeddings, MiniLMTorchEmbeddings  # noqa: E402
from boundloop.retrieval.minilm_files import model_dir  # noqa: E402
from boundloop.retrieval.minilm_torch_export import export_int8_onnx  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "minilm_reference.npz"


def reference_texts() -> list[str]:
    """Questions, whole demo documents (long ones are truncated at 256 tokens), short lines and odd inputs."""
    questions = [json.loads(line)["question"] for line in (ROOT / "demo" / "questions.jsonl").open()][:16]
    corpus = sorted((ROOT / "demo" / "corpus").glob("*.md"))[:12]
    documents = [path.read_text(encoding="utf-8") for path in corpus]
    lines = [line for path in corpus[:4] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()][:12]
    odd = ["a", "12,500 EUR", "Zürich – Übersicht der Räume", "¿Dónde está la oficina de Lisboa?", "x " * 400]
    return questions + documents + lines + odd


def main() -> int:
    texts = reference_texts()
    with tempfile.TemporaryDirectory() as tmp:
        exported = Path(tmp) / "torch.int8.onnx"
        export_int8_onnx(model_dir(), exported)
        int8 = MiniLMOnnxEmbeddings(workers=1, model_path=exported).encode(texts)
    fp32 = MiniLMTorchEmbeddings().encode(texts)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, texts=np.array(texts), torch_int8=int8.astype(np.float16), fp32=fp32.astype(np.float16))
    print(f"{OUT}: {len(texts)} texts; int8 vs fp32 cosine min {float(((int8 * fp32).sum(1)).min()):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
