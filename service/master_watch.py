"""Workers of `boundloop serve --workers N` leave when their master dies.

uvicorn's master supervises the worker processes; killed with SIGKILL, it cannot stop them, and orphaned workers
would go on serving and hold the port, so a restart fails with "address already in use". `boundloop serve` names
itself in `BOUNDLOOP_SERVE_MASTER`; each worker watches its parent and, once that is no longer the master, shuts
down as on SIGTERM (in-flight requests finish), then exits outright if that takes too long.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

from boundloop.policies.settings import settings

POLL_S = 0.5
GRACE_S = 10.0
log = logging.getLogger(__name__)


def _watch(master: int) -> None:
    while os.getppid() == master:
        time.sleep(POLL_S)
    log.warning("the serve master (pid %d) is gone: this worker shuts down", master)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(GRACE_S)
    os._exit(1)


def watch_master() -> None:
    """In a worker of `boundloop serve`, start watching the master; anywhere else, do nothing."""
    master = settings().serve_master
    if master is None or master == os.getpid():
        return
    threading.Thread(target=_watch, args=(master,), name="boundloop-master-watch", daemon=True).start()
