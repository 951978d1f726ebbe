"""What `/healthz` checks: the run store, the disks, the identity provider's keys and the LDAP directory.

The run store writes a row now, neither it nor the index sits on a full disk, and the OpenID provider's keys and
the LDAP directory (when configured) can be reached.

Reasons name the part, never a path or a user's data.
"""

from __future__ import annotations

import os
from pathlib import Path

from boundloop.service.state import ServiceState

MIN_FREE_BYTES = 1024 * 1024  # less than this left on a disk: ingest and runs are about to fail


def _full(folder: Path | None) -> bool:
    if folder is None:
        return False
    try:
        stats = os.statvfs(folder)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < MIN_FREE_BYTES


def problems(state: ServiceState) -> list[str]:
    """Why the service cannot answer and record runs, or ingest, right now; empty when it can."""
    found = [problem] if (problem := state.store.write_problem()) else []
    store_path = getattr(state.store, "path", None)
    if _full(store_path.parent if isinstance(store_path, Path) else None):
        found.append("the run store's disk is full")
    if _full(getattr(state.backend, "folder", None)):
        found.append("the index's disk is full")
    found.extend(state.identity_sources.problems())  # the OpenID provider's keys, the LDAP directory
    return found
