#!/usr/bin/env bash
# The install's footprint: `bash scripts/setup.sh` in a fresh virtualenv, twice (the first run warms pip's cache;
# the second is timed), then the virtualenv's size. The encoder and demo index go to a fresh cache each time.
#   bash benchmarks/install_footprint.sh [VENV_DIR]        (default /tmp/boundloop-footprint-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:-/tmp/boundloop-footprint-venv}
CACHE=$(mktemp -d)
trap 'rm -rf "$CACHE"' EXIT
for run in first timed; do
    rm -rf "$VENV" "$CACHE"/*
    python3 -m venv "$VENV"
    start=$(date +%s.%N)
    PATH="$VENV/bin:$PATH" BOUNDLOOP_CACHE="$CACHE" bash scripts/setup.sh >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "setup.sh ($run run): $(printf '%.1f' "$(echo "$end - $start" | bc)") s"
done
echo "virtualenv: $(du -sm "$VENV" | cut -f1) MB, $("$VENV/bin/pip" list 2>/dev/null | tail -n +3 | wc -l) packages"
if "$VENV/bin/python" -c "import torch" 2>/dev/null; then echo "torch: installed"; else echo "torch: not installed"; fi
