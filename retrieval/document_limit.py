"""The largest document ingest takes (`BOUNDLOOP_MAX_DOCUMENT_BYTES`), checked before a document is read whole.

Without a limit a 50 MB file was taken in and ingested for 23 minutes. A file in a folder is measured by `stat`
before it is opened; a JSONL line while it is read, so that an oversized line is never held in memory whole.
"""

from __future__ import annotations

from boundloop.policies.settings import settings

SETTING = "BOUNDLOOP_MAX_DOCUMENT_BYTES"


def max_document_bytes() -> int:
    """The limit in bytes: the setting (a bad value is a `SettingError`; 20,000,000 when unset)."""
    return settings().max_document_bytes


def too_large(what: str, size: int, limit: int) -> str:
    """Why a document was refused: 'the line is 25,000,000 bytes, over the limit of 20,000,000 ...'."""
    return f"{what} is {size:,} bytes, over the limit of {limit:,} for one document ({SETTING})"
