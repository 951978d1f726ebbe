"""Opens what a command needs: the index backend, the encoder, the entitlement resolver and the run store."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from boundloop.loop.runner import LoopRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.policies.entitlements import AccessFilter, EntitlementResolver
from boundloop.reasoners.factory import build_reasoner
from boundloop.retrieval.backend import Encoder, IndexBackend
from boundloop.retrieval.config import Locations, load_resolver, open_index, resolve_locations
from boundloop.retrieval.embeddings import build_embeddings
from boundloop.retrieval.search import EntitledSearcher
from boundloop.runstore.location import checkpoint_url_from_env, open_run_store, state_dir
from boundloop.runstore.store import RunStore


@dataclass
class Workspace:
    """One command's view of the configured index, directory and run store; the demo index is built on first use."""

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
        return open_index(self.locations, self.encoder)

    @cached_property
    def store(self) -> RunStore:
        """The same run store the service writes to, so `trace` and `stats` see its runs too."""
        return open_run_store(checkpoint_url_from_env(), state_dir(self.locations.index))

    @cached_property
    def runner(self) -> LoopRunner:
        backend = self.backend  # builds the demo index first when needed
        return LoopRunner(resolver=self.resolver, backend=backend, encoder=self.encoder, reasoner=build_reasoner(),
                          limits=BudgetLimits.from_env(), store=self.store)

    def searcher_for(self, user: str) -> EntitledSearcher:
        """A searcher bound to `user`'s groups; an unknown user raises before any search runs."""
        access = AccessFilter.for_principal(self.resolver.resolve(user))
        return EntitledSearcher(self.backend, self.encoder, access)
