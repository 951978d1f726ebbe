#!/usr/bin/env bash
# Build the wheel, install it into a fresh virtualenv outside the checkout (the lock's versions, runtime only), and
# use it there as a new user would: `boundloop setup`, the demo question, `boundloop doctor`, a folder ingest,
# `boundloop serve --demo` (the page at / and the API docs at /docs).
# Nothing from the checkout is importable there. .ci/run runs this; so can you.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$PYTHON" -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" .
grep -E '^[A-Za-z0-9]' requirements.lock | sed -e 's/ *\\$//' >"$work/constraints.txt"  # the pins, not the hashes
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-compile -c "$work/constraints.txt" "$work"/dist/boundloop-*.whl
cd "$work"
export PATH="$work/venv/bin:$PATH" BOUNDLOOP_CACHE="$work/cache" HF_HUB_OFFLINE=1
python -c "import boundloop.graph" && ! python -c "import graph" 2>/dev/null
boundloop setup
boundloop ask "How many days of annual leave do Lisbon employees get?" --user alice | tee ask.txt
grep -q "25 working days" ask.txt
boundloop doctor
mkdir docs && printf -- '---\nacl: [staff]\n---\n# Parking\n\nThe garage opens at 07:00.\n' >docs/parking.md
printf 'users:\n  sam: {groups: [staff]}\n' >users.yaml
boundloop ingest docs --index index
boundloop ask "When does the garage open?" --user sam --index index --directory users.yaml | grep -q "07:00"
port=$(python -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
boundloop serve --demo --port "$port" --access-log off >serve.log 2>&1 &
server=$!
get() { python -c "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())" "$1"; }
for _ in $(seq 60); do get "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
get "http://127.0.0.1:$port/" | grep -qi "<html" && get "http://127.0.0.1:$port/docs" | grep -qi "swagger"
kill "$server"; wait "$server" 2>/dev/null || true
echo "wheel: $(basename "$work"/dist/boundloop-*.whl) installs and answers outside the checkout"
