"""The built encoder file's SHA-256, recorded beside it when it is built, checked by `boundloop doctor` and on load.

Weights overwritten after the build (a bad copy, a disk error, another tool writing the cache) change every vector
the encoder makes, and the answers drift with no error: the record says what the file held when it was built. It is
a small JSON file next to the model (`<model>.sha256.json`), written atomically after the model is in place.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from boundloop.retrieval.private_files import FILE_MODE

RECORD_SUFFIX = ".sha256.json"
REMEDY = "run `boundloop setup --force` to rebuild it"
log = logging.getLogger(__name__)
_warned: set[Path] = set()


@dataclass(frozen=True)
class DigestCheck:
    """What the file holds against its record: `ok`, and a line saying so (with the remedy when it is not)."""

    ok: bool
    detail: str


def record_path(model: Path) -> Path:
    return model.with_name(model.name + RECORD_SUFFIX)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_record(model: Path) -> str:
    """Record the built file's SHA-256, size and modification time beside it (atomically); the digest."""
    digest, info = file_sha256(model), model.stat()
    record = {"file": model.name, "sha256": digest, "bytes": info.st_size, "mtime_ns": info.st_mtime_ns}
    fd, spare = tempfile.mkstemp(dir=model.parent, prefix=f".{model.name}.", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle)
        os.chmod(spare, FILE_MODE)
        os.replace(spare, record_path(model))
    except BaseException:
        Path(spare).unlink(missing_ok=True)
        raise
    return digest


def _record(model: Path) -> dict[str, object] | None:
    """The record, None when there is none; a record that cannot be read is one with no digest."""
    try:
        record = json.loads(record_path(model).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def check(model: Path, quick: bool = False) -> DigestCheck:
    """The file against its record. `quick` trusts a file whose size and modification time are as recorded."""
    record = _record(model)
    if record is None:
        return DigestCheck(True, f"{model}: no digest recorded (built by an older version); {REMEDY} and record one")
    info = model.stat()
    if quick and record.get("bytes") == info.st_size and record.get("mtime_ns") == info.st_mtime_ns:
        return DigestCheck(True, f"{model}: as built")
    expected = record.get("sha256")
    if not isinstance(expected, str):
        return DigestCheck(False, f"{model}: its digest record {record_path(model)} is unreadable; {REMEDY}")
    actual = file_sha256(model)
    if actual != expected:
        return DigestCheck(False, f"{model} changed since it was built (sha256 {actual[:12]}..., built as "
                                  f"{expected[:12]}...): its vectors no longer match the index; {REMEDY}")
    return DigestCheck(True, f"{model}: sha256 {actual[:12]}... as built")


def warn_if_changed(model: Path) -> None:
    """Log a warning, once per file and process, when the file no longer holds what was built."""
    if model in _warned:
        return
    try:
        result = check(model, quick=True)
    except OSError:
        return  # loading the model reports an unreadable file
    if not result.ok:
        _warned.add(model)
        log.warning("boundloop: warning: the offline encoder %s", result.detail)
