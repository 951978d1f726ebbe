"""Retrieval errors; messages are safe to show to the user who caused them."""

from boundloop.policies.errors import BoundloopError


class IndexStoreError(BoundloopError):
    """The index is missing, unreadable or was built with a different encoder."""


class IngestError(BoundloopError):
    """An ingest could not run at all (bad path, bad flag); nothing was written."""


class SearchTimeout(BoundloopError):
    """A search did not finish within the time it was given."""
