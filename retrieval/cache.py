"""Where boundloop keeps what it derives: the built encoder and the demo index (`BOUNDLOOP_CACHE`)."""

from __future__ import annotations

from pathlib import Path

from boundloop.policies.settings import settings


def cache_dir() -> Path:
    """`BOUNDLOOP_CACHE`, else `$XDG_CACHE_HOME/boundloop`, else `~/.cache/boundloop`."""
    configured = settings()
    if configured.cache:
        return Path(configured.cache)
    return Path(configured.xdg_cache_home or Path("~/.cache").expanduser()) / "boundloop"
