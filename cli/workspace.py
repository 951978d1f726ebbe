"""Opens what a command needs: the index backend, the encoder and the entitlement resolver."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from policies.entitlements import AccessFilter, EntitlementResolver
from retrieval.backend import Encoder, IndexBackend
from retrieval.config import Locations, load_resolver, open_backend, resolve_locations
from retrieval.embeddings import build_embeddings
from retrieval.search import EntitledSearcher


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

    def searcher_for(self, user: str) -> EntitledSearcher:
        """A searcher bound to `user`'s groups; an unknown user raises before any search runs."""
        access = AccessFilter.for_principal(self.resolver.resolve(user))
        return EntitledSearcher(self.backend, self.encoder, access)
