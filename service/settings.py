"""The service's deployment settings, read once from the environment; never from a request."""

from __future__ import annotations

import os

from pydantic import BaseModel, ConfigDict, Field

from policies.errors import BoundloopError
from runstore.location import checkpoint_url_from_env

MAX_BODY_BYTES = 64 * 1024
MAX_INGEST_BYTES = 8 * 1024 * 1024


class ServiceSettings(BaseModel):
    """Where the index, directory and checkpoints are, and the request limits."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: str | None = Field(default=None, description="Index folder; None means the bundled demo corpus.")
    directory: str | None = Field(default=None, description="Users-to-groups file (with api_key_sha256 entries).")
    checkpoint_url: str | None = Field(
        default=None, description="postgresql://... for shared PostgreSQL checkpoints; None means SQLite."
    )
    jwt_secret: str | None = Field(default=None, description="HS256 secret; None disables JWT bearer tokens.")
    max_body_bytes: int = Field(default=MAX_BODY_BYTES, gt=0, description="Largest JSON request body.")
    max_ingest_bytes: int = Field(default=MAX_INGEST_BYTES, gt=0, description="Largest POST /ingest body.")

    @classmethod
    def from_env(cls) -> ServiceSettings:
        """`BOUNDLOOP_INDEX`, `_DIRECTORY`, `_CHECKPOINT_URL`, `_JWT_SECRET`, `_MAX_BODY_BYTES`, `_MAX_INGEST_BYTES`."""
        url = checkpoint_url_from_env()
        try:
            max_body = int(os.environ.get("BOUNDLOOP_MAX_BODY_BYTES", MAX_BODY_BYTES))
            max_ingest = int(os.environ.get("BOUNDLOOP_MAX_INGEST_BYTES", MAX_INGEST_BYTES))
        except ValueError as exc:
            raise BoundloopError(f"a BOUNDLOOP_MAX_*_BYTES setting is not a number: {exc}") from None
        return cls(
            index=os.environ.get("BOUNDLOOP_INDEX") or None,
            directory=os.environ.get("BOUNDLOOP_DIRECTORY") or None,
            checkpoint_url=url,
            jwt_secret=os.environ.get("BOUNDLOOP_JWT_SECRET") or None,
            max_body_bytes=max_body,
            max_ingest_bytes=max_ingest,
        )
