"""Everything one service process shares between requests: the runner, the run registry, the index and identity."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from graph.reasoner import Reasoner
from graph.runner import LoopRunner
from policies.budget import BudgetLimits
from policies.entitlements import Directory, EntitlementResolver
from reasoners.factory import build_reasoner
from retrieval.backend import Encoder, IndexBackend
from retrieval.config import open_backend, resolve_locations
from retrieval.embeddings import build_embeddings, cache_dir
from service.identity import IdentityResolver
from service.persistence import Persistence, open_persistence
from service.run_store import RunStore
from service.settings import ServiceSettings


@dataclass
class ServiceState:
    """The parts a request needs; built once per process (per worker)."""

    settings: ServiceSettings
    directory: Directory
    backend: IndexBackend
    encoder: Encoder
    persistence: Persistence
    reasoner: Reasoner
    limits: BudgetLimits = field(default_factory=BudgetLimits)

    def __post_init__(self) -> None:
        self.identity = IdentityResolver(self.directory, self.settings.jwt_secret)
        self.resolver = EntitlementResolver(self.directory)
        self.runner = LoopRunner(
            resolver=self.resolver, backend=self.backend, encoder=self.encoder, reasoner=self.reasoner,
            limits=self.limits, checkpointer=self.persistence.checkpointer,
            registry=self.persistence.registry,
        )

    @property
    def registry(self) -> RunStore:
        return self.persistence.registry

    def close(self) -> None:
        self.persistence.close()
        self.backend.close()


def _state_dir(index: str) -> Path:
    """Beside an index folder, as the CLI keeps them, so `boundloop trace` and `stats` see service runs too."""
    return cache_dir() if "://" in index else Path(index)


def build_state(settings: ServiceSettings) -> ServiceState:
    """Open the configured index, directory and run store (the demo corpus when no index is configured)."""
    locations = resolve_locations(settings.index, settings.directory)
    encoder = build_embeddings()
    if locations.is_demo:
        from retrieval.demo import ensure_demo_index

        ensure_demo_index(encoder)
    backend = open_backend(locations.index)
    try:
        directory = Directory.load(locations.directory)
        persistence = open_persistence(settings.checkpoint_url, _state_dir(locations.index))
    except BaseException:
        backend.close()
        raise
    return ServiceState(settings=settings, directory=directory, backend=backend, encoder=encoder,
                        persistence=persistence, reasoner=build_reasoner(), limits=BudgetLimits.from_env())


_shared: ServiceState | None = None
_shared_lock = threading.Lock()


def shared_state() -> ServiceState:
    """The process's state from the environment, shared by the LangGraph server's graph factory, auth and app."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = build_state(ServiceSettings.from_env())
        return _shared
