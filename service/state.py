"""Everything one service process shares between requests: the runner, the run store, the index and identity."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from graph.reasoner import Reasoner
from graph.runner import LoopRunner
from policies.budget import BudgetLimits
from policies.entitlements import Directory, EntitlementResolver
from reasoners.factory import build_reasoner
from retrieval.backend import Encoder, IndexBackend
from retrieval.config import open_index, resolve_locations
from retrieval.embeddings import build_embeddings
from runstore.location import open_run_store, state_dir
from runstore.store import RunStore
from service.identity import IdentityResolver
from service.settings import ServiceSettings


@dataclass
class ServiceState:
    """The parts a request needs; built once per process (per worker)."""

    settings: ServiceSettings
    directory: Directory
    backend: IndexBackend
    encoder: Encoder
    store: RunStore
    reasoner: Reasoner
    limits: BudgetLimits = field(default_factory=BudgetLimits)

    def __post_init__(self) -> None:
        self.identity = IdentityResolver(self.directory, self.settings.jwt_secret)
        self.resolver = EntitlementResolver(self.directory)
        self.runner = LoopRunner(
            resolver=self.resolver, backend=self.backend, encoder=self.encoder, reasoner=self.reasoner,
            limits=self.limits, store=self.store,
        )

    def close(self) -> None:
        self.store.close()
        self.backend.close()


def build_state(settings: ServiceSettings) -> ServiceState:
    """Open the configured index, directory and run store (the demo corpus when no index is configured)."""
    locations = resolve_locations(settings.index, settings.directory)
    encoder = build_embeddings()
    backend = open_index(locations, encoder)
    try:
        directory = Directory.load(locations.directory)
        store = open_run_store(settings.checkpoint_url, state_dir(locations.index))
    except BaseException:
        backend.close()
        raise
    return ServiceState(settings=settings, directory=directory, backend=backend, encoder=encoder, store=store,
                        reasoner=build_reasoner(), limits=BudgetLimits.from_env())


_shared: ServiceState | None = None
_shared_lock = threading.Lock()


def shared_state() -> ServiceState:
    """The process's state from the environment, shared by the LangGraph server's graph factory, auth and app."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = build_state(ServiceSettings.from_env())
        return _shared
