"""Where the index and the directory are: flags first, then `BOUNDLOOP_INDEX` / `BOUNDLOOP_DIRECTORY`, then the demo."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boundloop.policies.entitlements import Directory, EntitlementResolver
from boundloop.policies.settings import settings
from boundloop.retrieval.backend import Encoder, IndexBackend
from boundloop.retrieval.cache import cache_dir
from boundloop.retrieval.errors import IndexStoreError
from boundloop.retrieval.sqlite_schema import INDEX_FILE

DEMO_ROOT = Path(__file__).resolve().parent.parent / "demo"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class Locations:
    """The resolved index location and directory file, and whether they are the bundled demo."""

    index: str
    directory: Path
    is_demo: bool


def demo_index_dir() -> Path:
    return cache_dir() / "demo-index"


def resolve_locations(index: str | None = None, directory: str | None = None) -> Locations:
    """Apply the precedence rules; a custom index without a directory is an error, not a silent demo directory."""
    configured = settings()
    index = index or configured.index
    directory = directory or configured.directory
    if index is None:
        return Locations(str(demo_index_dir()), Path(directory) if directory else DEMO_ROOT / "directory.yaml", True)
    if not is_server_url(index) and not (Path(index) / INDEX_FILE).is_file():
        raise IndexStoreError(f"no index at {index} (run `boundloop ingest PATH --index {index}` to build one)")
    if directory is None:
        raise IndexStoreError("no directory file: pass --directory FILE or set BOUNDLOOP_DIRECTORY")
    return Locations(index, Path(directory), False)


def is_server_url(index: str) -> bool:
    return index.startswith(POSTGRES_SCHEMES)


def open_backend(index: str, create: bool = False) -> IndexBackend:
    """The backend for an index location: a folder for the embedded index, postgresql://... for the server one."""
    if is_server_url(index):
        try:
            from boundloop.retrieval.postgres import PostgresIndex
        except ImportError:
            raise IndexStoreError(
                "the PostgreSQL backend needs its extra: pip install 'boundloop[postgres]'"
            ) from None
        return PostgresIndex.open(index, create=create)
    from boundloop.retrieval.sqlite_index import SqliteIndex

    return SqliteIndex(index, create=create)


def open_index(locations: Locations, encoder: Encoder) -> IndexBackend:
    """The configured index; the bundled demo index is built (or brought up to date) on first use."""
    if locations.is_demo:
        from boundloop.retrieval.demo import ensure_demo_index  # ingest and its loaders: only when the demo is used

        ensure_demo_index(encoder, Path(locations.index), DEMO_ROOT / "corpus")
    return open_backend(locations.index)


def load_resolver(directory: Path) -> EntitlementResolver:
    return EntitlementResolver(Directory.load(directory))
