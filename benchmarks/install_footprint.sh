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
    rm -rf "$VENV" "${CACHE:?}"/*
    python3 -m venv "$VENV"
    load=$(cut -d' ' -f1 /proc/loadavg)
    PATH="$VENV/bin:$PATH" BOUNDLOOP_CACHE="$CACHE" /usr/bin/time -o "$CACHE/time" -f "%e %U %S" \
        bash scripts/setup.sh >/dev/null 2>&1
    read -r wall user sys < "$CACHE/time"
    echo "setup.sh ($run run): ${wall} s wall, $(echo "$user + $sys" | bc) s CPU; load average before: $load"
done
size=$(du -sm "$VENV" | cut -f1)
"$VENV/bin/python" -m compileall -q -j 0 "$VENV/lib" >/dev/null 2>&1 || true  # as if every module had been imported
echo "virtualenv: ${size} MB after setup, $(du -sm "$VENV" | cut -f1) MB with every module compiled;" \
     "$("$VENV/bin/pip" list 2>/dev/null | tail -n +3 | wc -l) packages"
if "$VENV/bin/python" -c "import torch" 2>/dev/null; then echo "torch: installed"; else echo "torch: not installed"; fi
