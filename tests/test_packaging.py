"""The install holds: the lock matches pyproject.toml, and the wheel carries every file the product reads."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GIT_FILES = ["git", "ls-files", "--cached", "--others", "--exclude-standard"]  # what a commit of this tree holds
LAYERS = sorted(link.name for link in (ROOT / "boundloop").iterdir() if link.is_symlink())


def _lock_module():
    spec = importlib.util.spec_from_file_location("lock", ROOT / "scripts" / "lock.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_lock_matches_pyproject():
    done = subprocess.run([sys.executable, "scripts/lock.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_lock_that_does_not_match_says_in_one_line_how_to_refresh_it(tmp_path, monkeypatch, capsys):
    lock = _lock_module()
    shutil.copy(ROOT / "requirements.lock", tmp_path / "requirements.lock")
    changed = (ROOT / "pyproject.toml").read_text().replace('"pyyaml>=6.0",', '"pyyaml>=6.0",\n    "rich>=13",')
    (tmp_path / "pyproject.toml").write_text(changed)
    monkeypatch.setattr(lock, "ROOT", tmp_path)
    monkeypatch.setattr(lock, "LOCK", tmp_path / "requirements.lock")
    monkeypatch.setattr(sys, "argv", ["lock.py", "--check"])
    assert lock.main() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not match pyproject.toml" in err and "python3 scripts/lock.py" in err


def test_every_locked_package_is_pinned_with_a_hash():
    entries = [line for line in (ROOT / "requirements.lock").read_text().splitlines() if line[:1].isalnum()]
    assert len(entries) > 100 and all("==" in line and line.endswith("\\") for line in entries)


def test_the_layers_are_linked_into_one_package():
    assert LAYERS == ["cli", "demo", "domain", "evals", "graph", "loop", "nodes", "policies", "reasoners", "retrieval",
                      "runstore", "service"]
    for name in LAYERS:
        assert (ROOT / "boundloop" / name).resolve() == ROOT / name


def _tracked_data_files() -> set[str]:
    listed = subprocess.run([*GIT_FILES, *LAYERS], cwd=ROOT, capture_output=True, text=True, check=True)
    return {f"boundloop/{path}" for path in listed.stdout.split() if not path.endswith(".py")}


@pytest.mark.slow
def test_the_wheel_carries_every_file_of_the_package_folders(tmp_path):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout")
    tree = tmp_path / "tree"  # a copy of the tracked files, links kept: the build leaves nothing in the checkout
    listed = subprocess.run(GIT_FILES, cwd=ROOT, capture_output=True, text=True, check=True)
    for path in listed.stdout.split():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, tree / path, follow_symlinks=False)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(tmp_path), str(tree)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("boundloop-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert _tracked_data_files() - names == set()  # answerability model, demo corpus, page files, probes
    assert {"boundloop/__init__.py", "boundloop/loop/builder.py", "boundloop/__main__.py"} <= names
    assert not any(name.split("/")[0] in LAYERS for name in names)  # no top-level `graph`, `cli`, ...
