"""Where boundloop keeps what it derives: the built encoder and the demo index (`BOUNDLOOP_CACHE`)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """`BOUNDLOOP_CACHE`, else `$XDG_CACHE_HOME/boundloop`, else `~/.cache/boundloop`."""
    base = os.environ.get("BOUNDLOOP_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "boundloop"
    )
    return Path(base)
