"""The demo directory's API keys are published (`demo-key-<user>`): a server accepts them only when told `--demo`.

Whatever directory a server loads, digests that also appear in `demo/directory.yaml` belong to published keys;
outside demo mode such a directory is refused at startup and never reloaded.
"""

from __future__ import annotations

from functools import lru_cache

from boundloop.policies.entitlements import Directory
from boundloop.policies.errors import DirectoryError
from boundloop.retrieval.config import DEMO_ROOT

DEMO_DIRECTORY = DEMO_ROOT / "directory.yaml"
NO_DIRECTORY = (
    "no directory of users and API keys: pass --directory FILE or set BOUNDLOOP_DIRECTORY (see docs/service.md); "
    "to serve the demo corpus with its published demo keys, pass --demo (BOUNDLOOP_DEMO=1)"
)


@lru_cache(maxsize=1)
def published_digests() -> frozenset[str]:
    return Directory.load(DEMO_DIRECTORY).api_key_digests


def refuse_published_keys(directory: Directory) -> None:
    """`DirectoryError` if any of the directory's API-key digests is one of the published demo keys."""
    users = sorted(name for name, entry in directory.users.items() if entry.api_key_sha256 & published_digests())
    if users:
        raise DirectoryError(
            f"directory {directory.source} accepts the published demo API keys (demo-key-<user>) for "
            f"{', '.join(users)}: give those users keys of their own, or serve the demo with --demo (BOUNDLOOP_DEMO=1)"
        )
