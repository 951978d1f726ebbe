#!/usr/bin/env bash
# Build the wheel, install it into a fresh virtualenv outside the checkout (the lock's versions, runtime only), and
# use it there as a new user would: `boundloop setup`, the demo question, `boundloop doctor`, a folder ingest.
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
echo "wheel: $(basename "$work"/dist/boundloop-*.whl) installs and answers outside the checkout"
