"""Service fixtures: the app over the small test index (hash encoder, offline reasoner) with SQLite checkpoints."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boundloop.policies.budget import BudgetLimits
from boundloop.policies.entitlements import Directory
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.runstore.sqlite import SqliteRunStore
from boundloop.service.app import create_app
from boundloop.service.settings import ServiceSettings
from boundloop.service.state import ServiceState
from tests.service.keys import JWT_SECRET, directory_with_keys


def make_state(index, encoder, state_dir: Path, store=None, jwt_secret: str | None = JWT_SECRET,
               limits: BudgetLimits | None = None, reasoner=None, **settings) -> ServiceState:
    return ServiceState(
        settings=ServiceSettings(jwt_secret=jwt_secret, **settings),
        directory=Directory.from_mapping(directory_with_keys()),
        backend=index, encoder=encoder,
        store=store or SqliteRunStore(state_dir / "runs.db"),
        reasoner=reasoner or OfflineReasoner(), limits=limits or BudgetLimits(),
    )


@pytest.fixture
def state(index, encoder, tmp_path) -> ServiceState:
    return make_state(index, encoder, tmp_path)


@pytest.fixture
def client(state) -> Iterator[TestClient]:
    with TestClient(create_app(state), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def real_index_dir(tmp_path_factory, real_encoder) -> Path:
    """The small test corpus indexed with the real encoder, for tests that start real server processes."""
    import json

    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.loaders import load_jsonl
    from boundloop.retrieval.sqlite_index import SqliteIndex
    from tests.conftest import DOCS

    folder = tmp_path_factory.mktemp("real-index")
    docs = folder / "docs.jsonl"
    docs.write_text("\n".join(json.dumps(d) for d in DOCS) + "\n")
    index = SqliteIndex(folder / "index", create=True)
    try:
        ingest(index, real_encoder, load_jsonl(docs), show_progress=False)
    finally:
        index.close()
    return folder / "index"


@pytest.fixture(scope="session")
def keyed_directory(tmp_path_factory) -> Path:
    from tests.service.keys import write_directory

    return write_directory(tmp_path_factory.mktemp("directory") / "directory.json")


@pytest.fixture(scope="session")
def postgres_server():
    from tests.service import postgres

    yield from postgres.server()


@pytest.fixture
def postgres_url(postgres_server) -> Iterator[str]:
    from tests.service import postgres

    yield from postgres.fresh_database(postgres_server)
