"""`boundloop serve`: the FastAPI service on uvicorn, one or more worker processes sharing one run store."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from typing import TYPE_CHECKING

from boundloop.policies.errors import BoundloopError
from boundloop.policies.settings import export, set_in_environment, settings

if TYPE_CHECKING:
    from boundloop.service.settings import ServiceSettings

APP_FACTORY = "boundloop.service.app:create_app"
DEMO_CONFLICT = ("--demo serves the bundled demo corpus with its own directory: drop --index and --directory "
                 "(and unset BOUNDLOOP_INDEX and BOUNDLOOP_DIRECTORY)")


def add_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    p.add_argument("--index", help="index folder (default: $BOUNDLOOP_INDEX)")
    p.add_argument("--directory", help="users-to-groups file with api_key_sha256 entries ($BOUNDLOOP_DIRECTORY)")
    p.add_argument("--demo", action="store_true",
                   help="serve the bundled demo corpus and accept its published demo keys (demo-key-<user>); "
                        "never outside a demo")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--access-log", choices=["text", "json", "off"],
                   help="one line per request: text (default), json, or off ($BOUNDLOOP_ACCESS_LOG)")
    p.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Workers are separate processes that import the app factory; settings reach them through the environment.

    The flags that set a setting (`--index`, `--directory`, `--demo`, `--access-log`) are exported as their
    `BOUNDLOOP_*` variables (`policies.settings.export`), so this process and every worker read the same values.

    The settings and the directory are checked here first, so a mistake is one clear error, not a worker crash.
    """
    import uvicorn

    from boundloop.service.rate_store import check_reachable, shared_uri
    from boundloop.service.settings import ServiceSettings
    from boundloop.service.state import open_directory

    if args.workers < 1:
        raise BoundloopError("--workers must be at least 1")
    configured = settings()  # every BOUNDLOOP_* setting checked: one clear line, not a worker's crash
    if args.demo and (args.index or args.directory or configured.index or configured.directory):
        raise BoundloopError(DEMO_CONFLICT)
    export({"index": args.index, "directory": args.directory, "demo": args.demo, "access_log": args.access_log,
            "web_concurrency": args.workers})  # each worker's share of the rates (service.rate_store)
    service = ServiceSettings.from_env()
    check_reachable(service.rate_storage)
    open_directory(service)
    if args.workers > 1 and shared_uri(service.rate_storage) is None:
        print(share_notice(service), file=sys.stderr, flush=True)
    metrics_dir = None
    if args.workers > 1 and not configured.prometheus_multiproc_dir:
        # Each worker writes its samples here; /metrics on any worker sums them all.
        metrics_dir = tempfile.mkdtemp(prefix="boundloop-metrics-")
        set_in_environment("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
    export({"serve_master": os.getpid()})  # workers leave when this process dies (service.master_watch)
    try:
        # proxy_headers=False: uvicorn would believe X-Forwarded-For from 127.0.0.1; the app reads forwarded
        # headers from BOUNDLOOP_TRUSTED_PROXIES only (service.forwarded)
        uvicorn.run(APP_FACTORY, factory=True, host=args.host, port=args.port, workers=args.workers,
                    log_level=args.log_level, access_log=False, proxy_headers=False)
    finally:
        if metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def share_notice(settings: ServiceSettings) -> str:
    """The one line `serve` prints when several workers count rate limits apart, each in its own memory."""
    rates = ", ".join(f"{name} {rate} -> {rate.share(settings.workers)}"
                      for name, rate in (("per key", settings.rate_per_key), ("per address", settings.rate_per_address))
                      if rate)
    return (f"boundloop serve: {settings.workers} workers without BOUNDLOOP_RATE_STORAGE: each worker allows its "
            f"share of the rate limits ({rates or 'off'}); set BOUNDLOOP_RATE_STORAGE=redis://... to count them "
            "together")
