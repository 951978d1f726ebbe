"""`boundloop doctor [--index DIR]`: check the index, the run store, the encoder and its file; exit 2 if any fails."""

from __future__ import annotations

import argparse
from pathlib import Path

from boundloop.policies.errors import BoundloopError
from boundloop.policies.settings import settings
from boundloop.retrieval.config import demo_index_dir, is_server_url
from boundloop.retrieval.sqlite_check import Finding, check_index_agrees, check_integrity
from boundloop.retrieval.sqlite_index import INDEX_FILE
from boundloop.retrieval.sqlite_schema import DAMAGED_REMEDY
from boundloop.runstore.location import RUNS_FILE, checkpoint_url_from_env, state_dir
from boundloop.runstore.sqlite import REMEDY as RUNS_REMEDY


def add_doctor(p: argparse.ArgumentParser) -> None:
    p.add_argument("--index", help="index folder or postgresql:// URL (default: $BOUNDLOOP_INDEX, else the demo index)")
    p.set_defaults(run=run_doctor)


def _index(index: str) -> list[Finding]:
    if is_server_url(index):
        try:
            from boundloop.retrieval.postgres.doctor import check_postgres_index
            from boundloop.retrieval.postgres.settings import redact
        except ImportError:
            return [Finding(False, "index", "the PostgreSQL backend needs: pip install 'boundloop[postgres]'")]
        return check_postgres_index(index, redact(index))
    path = Path(index) / INDEX_FILE
    integrity = check_integrity(path, "index", DAMAGED_REMEDY)
    return [integrity, check_index_agrees(path, DAMAGED_REMEDY)] if integrity.ok else [integrity]


def _run_store(index: str) -> list[Finding]:
    url = checkpoint_url_from_env()
    if url:
        from boundloop.runstore.postgres import PostgresRunStore

        store = PostgresRunStore(url)
        try:
            return [Finding(True, "run store (PostgreSQL)", f"{store.count()} runs kept")]
        finally:
            store.close()
    path = state_dir(index) / RUNS_FILE
    if not path.exists():
        return [Finding(True, f"run store {path}", "no runs yet")]
    return [check_integrity(path, "run store", RUNS_REMEDY)]


def _encoder() -> list[Finding]:
    from boundloop.retrieval.embeddings import build_embeddings

    try:
        encoder = build_embeddings()
        encoder.encode(["boundloop doctor"])
    except BoundloopError as exc:
        return [Finding(False, "encoder", str(exc))]
    return [Finding(True, f"encoder {encoder.name}", "loads and encodes")]


def _encoder_file() -> list[Finding]:
    """The built int8 file against the digest recorded when it was built (the offline encoder only)."""
    from boundloop.retrieval.encoder_digest import check
    from boundloop.retrieval.minilm_files import int8_path

    model = int8_path()
    try:
        spec = settings().embeddings
    except BoundloopError:  # the encoder's line has said so
        return []
    if spec != "minilm" or not model.exists():
        return []
    try:
        result = check(model)
    except OSError as exc:
        return [Finding(False, "encoder file", f"cannot read {model}: {exc.strerror or exc}")]
    return [Finding(result.ok, "encoder file", result.detail)]


def run_doctor(args: argparse.Namespace) -> int:
    index = args.index or settings().index or str(demo_index_dir())
    findings = []
    for check in (_index, _run_store):
        try:
            findings += check(index)
        except BoundloopError as exc:
            findings.append(Finding(False, check.__name__.strip("_").replace("_", " "), str(exc)))
    findings += _encoder()
    findings += _encoder_file()
    for finding in findings:
        print(f"{'ok' if finding.ok else 'FAIL':<4}  {finding.subject}: {finding.detail}")
    return 0 if all(f.ok for f in findings) else 2
