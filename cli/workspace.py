"""Opens what a command needs: the index backend, the encoder and the entitlement resolver."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from graph.registry import RunRegistry
from graph.runner import CHECKPOINT_FILE, LoopRunner, sqlite_checkpointer
from policies.budget import BudgetLimits
from policies.entitlements import AccessFilter, EntitlementResolver
from reasoners.factory import build_reasoner
from retrieval.backend import Encoder, IndexBackend
from retrieval.config import Locations, load_resolver, open_backend, resolve_locations
from retrieval.embeddings import build_embeddings, cache_dir
from retrieval.search import EntitledSearcher


def add_location_args(parser: argparse.ArgumentParser) -> None:
    """The `--index` / `--directory` flags every command that reads an index shares."""
    parser.add_argument("--index", help="index folder (default: $BOUNDLOOP_INDEX, else the demo corpus)")
    parser.add_argument("--directory", help="users-to-groups file (default: $BOUNDLOOP_DIRECTORY)")


@dataclass
class Workspace:
    """One command's view of the configured index and directory; the demo index is built on first use."""

    locations: Locations

    @classmethod
    def open(cls, index: str | None, directory: str | None) -> Workspace:
        return cls(resolve_locations(index, directory))

    @cached_property
    def encoder(self) -> Encoder:
        return build_embeddings()

    @cached_property
    def resolver(self) -> EntitlementResolver:
        return load_resolver(self.locations.directory)

    @cached_property
    def backend(self) -> IndexBackend:
        if self.locations.is_demo:
            from retrieval.demo import ensure_demo_index

            ensure_demo_index(self.encoder)
        return open_backend(self.locations.index)

    @cached_property
    def registry(self) -> RunRegistry:
        return RunRegistry(self.state_dir / CHECKPOINT_FILE)

    @property
    def state_dir(self) -> Path:
        """Where runs are checkpointed: beside an index folder, else the local cache."""
        index = self.locations.index
        if "://" in index:
            return cache_dir()
        return Path(index)

    @cached_property
    def runner(self) -> LoopRunner:
        backend = self.backend  # builds the demo index first when needed
        return LoopRunner(
            resolver=self.resolver, backend=backend, encoder=self.encoder, reasoner=build_reasoner(),
            limits=BudgetLimits.from_env(), checkpointer=sqlite_checkpointer(self.state_dir / CHECKPOINT_FILE),
            registry=self.registry,
        )

    def searcher_for(self, user: str) -> EntitledSearcher:
        """A searcher bound to `user`'s groups; an unknown user raises before any search runs."""
        access = AccessFilter.for_principal(self.resolver.resolve(user))
        return EntitledSearcher(self.backend, self.encoder, access)
