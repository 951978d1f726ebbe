"""Shared fixtures: a deterministic bag-of-words encoder for fast unit tests, the real encoder for integration."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("LANGSMITH_TRACING", "false")

from boundloop.domain.words import content_terms  # noqa: E402
from boundloop.policies.entitlements import AccessFilter, Directory, EntitlementResolver  # noqa: E402
from boundloop.retrieval.sqlite_index import SqliteIndex  # noqa: E402


class HashEncoder:
    """Hashes content words into 64 buckets: similar word sets give similar unit vectors. Deterministic."""

    name = "test-hash-64"
    dimension = 64

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for term in content_terms(text):
                bucket = int(hashlib.md5(term.encode()).hexdigest(), 16) % self.dimension
                out[row, bucket] += 1.0
            norm = np.linalg.norm(out[row])
            out[row] = out[row] / norm if norm else out[row]
        return out


DOCS = [
    {"id": "expense", "title": "Expense policy", "acl": ["all-staff"],
     "text": "Expense claims above EUR 5,000 need approval from the Head of Finance. Claims are filed in Concur."},
    {"id": "orgchart", "title": "Org chart", "acl": ["all-staff"],
     "text": "The Head of Finance is Priya Raman. The Head of People is Tomas Berg."},
    {"id": "seating", "title": "Lisbon seating chart", "acl": ["all-staff"],
     "text": "Priya Raman sits in room 3.12 on the third floor of the Lisbon office."},
    {"id": "salaries", "title": "Salary bands", "acl": ["hr"],
     "text": "Level L5 engineers earn between EUR 80,000 and EUR 95,000 per year. CANARY-HR-1111."},
    {"id": "reorg", "title": "Reorganisation plan", "acl": ["leadership"],
     "text": "The finance team merges with procurement in March. "
             "Expense approvals move to Priya Raman. CANARY-LEAD-2222."},
    {"id": "orphan", "title": "Orphan note", "text": "An expense note that carries no access list. CANARY-NONE-3333."},
]

USERS = {
    "users": {
        "alice": {"groups": ["all-staff", "hr"]},
        "bob": {"groups": ["all-staff"]},
        "carol": {"groups": ["all-staff", "leadership"]},
        "frank": {"groups": []},
    }
}


@pytest.fixture
def encoder() -> HashEncoder:
    return HashEncoder()


@pytest.fixture
def docs_jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "docs.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in DOCS) + "\n")
    return path


@pytest.fixture
def directory_file(tmp_path: Path) -> Path:
    path = tmp_path / "directory.json"
    path.write_text(json.dumps(USERS))
    return path


@pytest.fixture
def resolver() -> EntitlementResolver:
    return EntitlementResolver(Directory.from_mapping(USERS))


@pytest.fixture
def index(tmp_path: Path, encoder: HashEncoder, docs_jsonl: Path) -> SqliteIndex:
    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.loaders import load_jsonl

    idx = SqliteIndex(tmp_path / "index", create=True)
    ingest(idx, encoder, load_jsonl(docs_jsonl), show_progress=False)
    yield idx
    idx.close()


def access(*groups: str) -> AccessFilter:
    return AccessFilter(groups=frozenset(groups))


@pytest.fixture(scope="session")
def real_encoder():
    from boundloop.retrieval.embeddings import build_embeddings

    return build_embeddings()


@pytest.fixture(scope="session")
def demo_cache(tmp_path_factory, real_encoder):
    """A private cache folder for the demo index, sharing the exported encoder model with the user cache."""
    from boundloop.retrieval.cache import cache_dir

    models = cache_dir() / "models"
    folder = tmp_path_factory.mktemp("cache")
    (folder / "models").symlink_to(models, target_is_directory=True)
    previous = os.environ.get("BOUNDLOOP_CACHE")
    os.environ["BOUNDLOOP_CACHE"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("BOUNDLOOP_CACHE", None)
    else:
        os.environ["BOUNDLOOP_CACHE"] = previous


# --- both index backends: the retrieval contract tests take `backend` (or `empty_backend`) and run twice ---------

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def pg_index_server():
    """One real PostgreSQL 16 + pgvector for the index tests (tests/service/postgres.py's pgserver helper)."""
    from tests.service import postgres

    yield from postgres.server()


@pytest.fixture(scope="module")
def pg_index_database(pg_index_server):
    """A fresh database per test module, with the writer and reader roles: yields its `PgSettings`."""
    from tests.postgres_backend.databases import provisioned_database

    yield from provisioned_database(pg_index_server)


@pytest.fixture(params=["sqlite", "postgres"])
def place(request, tmp_path):
    """Where a run store lives (tests of runstore/): a folder for SQLite, a fresh database URL for PostgreSQL."""
    if request.param == "sqlite":
        yield "sqlite", tmp_path
        return
    from tests.service import postgres

    databases = postgres.fresh_database(request.getfixturevalue("pg_index_server"))
    yield "postgres", next(databases)
    databases.close()


@pytest.fixture(params=BACKENDS)
def empty_backend(request, tmp_path: Path):
    """An empty index of each kind (for PostgreSQL: the module's database with its schema dropped and re-made)."""
    if request.param == "sqlite":
        backend = SqliteIndex(tmp_path / "index", create=True)
    else:
        from boundloop.retrieval.postgres import PostgresIndex
        from tests.postgres_backend.databases import drop_index

        settings = request.getfixturevalue("pg_index_database")
        drop_index(settings)
        backend = PostgresIndex(settings, create=True)
    yield backend
    backend.close()


@pytest.fixture
def backend(empty_backend, encoder: HashEncoder, docs_jsonl: Path):
    """The small test corpus (DOCS) in each kind of index."""
    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.loaders import load_jsonl

    ingest(empty_backend, encoder, load_jsonl(docs_jsonl), show_progress=False)
    return empty_backend
