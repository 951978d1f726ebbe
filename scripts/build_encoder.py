"""Build the offline encoder: all-MiniLM-L6-v2 as an int8 ONNX file, from the packaged weights, without PyTorch.

    python3 scripts/build_encoder.py                 # into the cache ($BOUNDLOOP_CACHE/models), if missing
    python3 scripts/build_encoder.py --force         # rebuild
    python3 scripts/build_encoder.py --from-torch    # re-export through PyTorch instead (pip install '.[export]')
    python3 scripts/build_encoder.py --out FILE      # somewhere else

`bash scripts/setup.sh` runs the first form. Both builds give the same int8 weights (tests/test_encoder_build.py).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from retrieval.minilm_files import int8_path, model_dir  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help=f"where to write the file (default: {int8_path()})")
    parser.add_argument("--force", action="store_true", help="build even if the file exists")
    parser.add_argument("--from-torch", action="store_true", help="export through torch.onnx (the export extra)")
    args = parser.parse_args()
    target = args.out or int8_path()
    if target.exists() and not args.force:
        print(f"{target} exists (--force rebuilds it)")
        return 0
    if args.from_torch:
        from retrieval.minilm_torch_export import export_int8_onnx as build
    else:
        from retrieval.minilm_build import build_int8_onnx as build
    import logging

    logging.getLogger().setLevel(logging.ERROR)  # the quantiser's advice to pre-process: not for this model
    build(model_dir(), target)
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    print(f"{target}: {target.stat().st_size / 1e6:.1f} MB, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
