"""Which process ran a run, and whether it still runs: how a run left unfinished by a crash is told apart.

A worker id is `host:pid:start`, the start being the process's start time in clock ticks since boot (from
`/proc`), so a pid reused by a later process does not pass for the one that crashed.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path


def _start_ticks(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # field 22, counted after the parenthesised command name


def worker_id() -> str:
    """The current process, as the registry records it."""
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_ticks(pid) or ''}"


def still_running(worker: str | None) -> bool | None:
    """Whether the recorded process still runs; None when that cannot be known here (another host, no record)."""
    host, _, rest = (worker or "").rpartition(":")[0].rpartition(":")
    pid, start = rest, (worker or "").rpartition(":")[2]
    if host != socket.gethostname() or not pid.isdigit() or not start:
        return None
    return _start_ticks(int(pid)) == start
