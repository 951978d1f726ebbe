"""The built encoder's SHA-256 is recorded beside it; `doctor` fails, and loading warns, once its weights change."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from boundloop.cli.main import main
from boundloop.retrieval import encoder_digest, minilm_build
from boundloop.retrieval.encoder_digest import check, record_path, write_record

pytestmark = pytest.mark.slow


@pytest.fixture
def cache(tmp_path, monkeypatch, real_encoder):
    """A private cache whose encoder file is a copy of the one in use; building it is copying it."""
    from boundloop.retrieval.minilm_files import int8_path

    built = int8_path()  # the user cache's, which `real_encoder` made sure of
    monkeypatch.setenv("BOUNDLOOP_CACHE", str(tmp_path / "cache"))

    def build(source: Path, target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)

    monkeypatch.setattr(minilm_build, "build_int8_onnx", build)
    monkeypatch.setattr(encoder_digest, "_warned", set())
    return int8_path()


def _damage(model: Path) -> None:
    data = bytearray(model.read_bytes())
    data[len(data) // 2] ^= 0x55  # a weight byte: the model still loads, its vectors move
    model.write_bytes(bytes(data))


def test_the_first_use_build_records_the_digest(cache):
    from boundloop.retrieval.minilm_files import ensure_int8_model

    assert not cache.exists()
    model = ensure_int8_model()
    record = json.loads(record_path(model).read_text())
    assert record["sha256"] == encoder_digest.file_sha256(model) and record["bytes"] == model.stat().st_size
    assert check(model).ok and "as built" in check(model).detail
    assert record_path(model).stat().st_mode & 0o777 == 0o600


def test_setup_force_records_the_digest(cache, tmp_path, capsys):
    target = tmp_path / "elsewhere" / "int8.onnx"
    assert main(["setup", "--force", "--no-demo", "--out", str(target)]) == 0
    digest = json.loads(record_path(target).read_text())["sha256"]
    assert f"sha256 {digest}" in capsys.readouterr().out and check(target).ok


def test_doctor_fails_on_changed_weights_and_says_what_to_do(cache, index, tmp_path, capsys, monkeypatch):
    from boundloop.retrieval.minilm_files import ensure_int8_model

    monkeypatch.delenv("BOUNDLOOP_CHECKPOINT_URL", raising=False)
    monkeypatch.delenv("BOUNDLOOP_EMBEDDINGS", raising=False)
    index.close()
    model = ensure_int8_model()
    assert main(["doctor", "--index", str(tmp_path / "index")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("ok    encoder file: ")
    _damage(model)
    assert main(["doctor", "--index", str(tmp_path / "index")]) == 2
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("FAIL  encoder file: ") and "changed since it was built" in last
    assert last.endswith("run `boundloop setup --force` to rebuild it")
    write_record(model)  # what a rebuild does
    assert main(["doctor", "--index", str(tmp_path / "index")]) == 0


def test_a_file_built_before_digests_were_recorded_passes_with_advice(cache):
    from boundloop.retrieval.minilm_files import ensure_int8_model

    model = ensure_int8_model()
    record_path(model).unlink()
    result = check(model)
    assert result.ok and "no digest recorded" in result.detail and "boundloop setup --force" in result.detail
    record_path(model).write_text("{not json")
    assert not check(model).ok and "unreadable" in check(model).detail


def test_loading_changed_weights_warns_once(cache, caplog):
    from boundloop.retrieval.embeddings import MiniLMOnnxEmbeddings
    from boundloop.retrieval.minilm_files import ensure_int8_model

    model = ensure_int8_model()
    with caplog.at_level(logging.WARNING, logger=encoder_digest.__name__):
        MiniLMOnnxEmbeddings(workers=1)
        assert caplog.records == []
        _damage(model)
        MiniLMOnnxEmbeddings(workers=1)
        MiniLMOnnxEmbeddings(workers=1)
    [warning] = caplog.records
    assert "changed since it was built" in warning.getMessage() and "boundloop setup --force" in warning.getMessage()
