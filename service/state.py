"""Everything one service process shares between requests: the runner, the run store, the index and identity."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

from boundloop.graph.reasoner import Reasoner
from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.entitlements import Directory, DirectorySource
from boundloop.policies.errors import BoundloopError
from boundloop.reasoners.factory import build_reasoner
from boundloop.retrieval.backend import Encoder, IndexBackend
from boundloop.retrieval.config import Locations, open_index, resolve_locations
from boundloop.retrieval.embeddings import build_embeddings
from boundloop.runstore.location import open_run_store, state_dir
from boundloop.runstore.store import RunStore
from boundloop.service.demo_keys import NO_DIRECTORY, refuse_published_keys
from boundloop.service.directory_reload import ReloadingDirectory
from boundloop.service.identity_sources import build_identity
from boundloop.service.langsmith_feedback import LangSmithFeedback
from boundloop.service.settings import ServiceSettings


@dataclass
class ServiceState:
    """The parts a request needs; built once per process (per worker)."""

    settings: ServiceSettings
    directory: DirectorySource
    backend: IndexBackend
    encoder: Encoder
    store: RunStore
    reasoner: Reasoner
    limits: BudgetLimits = field(default_factory=BudgetLimits)
    langsmith: LangSmithFeedback = field(default_factory=LangSmithFeedback)
    """Where ratings are copied when LangSmith tracing is configured."""

    def __post_init__(self) -> None:
        self.identity_sources = build_identity(self.settings, self.directory)
        self.identity = self.identity_sources.identity
        self.resolver = self.identity_sources.resolver
        self.runner = LoopRunner(
            resolver=self.resolver, backend=self.backend, encoder=self.encoder, reasoner=self.reasoner,
            limits=self.limits, store=self.store,
        )

    def close(self) -> None:
        if isinstance(self.directory, ReloadingDirectory):
            self.directory.close()
        self.store.close()
        self.backend.close()


class ProviderOnly:
    """No directory file, with an OpenID provider: no API keys, and every user and group comes from the provider."""

    _EMPTY = Directory({}, source="(none: users come from the OpenID provider)")

    def current(self) -> Directory:
        return self._EMPTY

    def watch(self) -> None:
        """Nothing to watch."""


def open_directory(settings: ServiceSettings) -> tuple[Locations, ReloadingDirectory | ProviderOnly]:
    """Where the index is, and the directory: loaded and validated, not yet watched.

    `boundloop serve` calls this before it starts its workers, so a bad setting is one clear error. With an OpenID
    provider the directory file is optional (it then holds only the API keys of scripts).
    """
    if settings.oidc is not None and settings.directory is None and not settings.demo:
        if not settings.index:
            raise BoundloopError("BOUNDLOOP_OIDC_ISSUER is set without a directory file: set BOUNDLOOP_INDEX to "
                                 "the index to serve")
        # the index is checked as usual; no directory file is read, so its path is a placeholder
        return resolve_locations(settings.index, os.devnull), ProviderOnly()
    locations = resolve_locations(settings.index, settings.directory)
    if locations.is_demo and settings.directory is None and not settings.demo:
        raise BoundloopError(NO_DIRECTORY)
    validate = _allow_any if settings.demo else refuse_published_keys
    return locations, ReloadingDirectory(locations.directory, validate=validate)


def build_state(settings: ServiceSettings) -> ServiceState:
    """Open the configured index, directory and run store (the demo corpus when no index is configured).

    Without a directory file only demo mode serves, and outside demo mode a directory holding the published demo
    keys is refused. The directory is then watched: changes to it take effect while the server runs.
    """
    locations, directory = open_directory(settings)
    encoder = build_embeddings()
    backend = open_index(locations, encoder)
    try:
        store = open_run_store(settings.checkpoint_url, state_dir(locations.index))
    except BaseException:
        backend.close()
        raise
    directory.watch()
    return ServiceState(settings=settings, directory=directory, backend=backend, encoder=encoder, store=store,
                        reasoner=build_reasoner(), limits=BudgetLimits.from_env())


def _allow_any(directory: Directory) -> None:
    """Demo mode: the published demo keys are accepted."""


_shared: ServiceState | None = None
_shared_lock = threading.Lock()


def shared_state() -> ServiceState:
    """The process's state from the environment, shared by the LangGraph server's graph factory, auth and app."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = build_state(ServiceSettings.from_env())
        return _shared
