"""CONTRIBUTING.md points at real files: every path it names (a glob, for `tests/test_reader*.py`) exists."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PATH = re.compile(r"`((?:[\w.*-]+/)+(?:[\w.*-]+\.(?:py|md|json|sh))?)`")


def test_every_path_it_names_exists():
    named = PATH.findall((REPO / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    assert len(named) > 20
    assert [path for path in named if not any(REPO.glob(path.rstrip("/")))] == []
