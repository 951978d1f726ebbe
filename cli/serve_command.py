"""`boundloop serve`: the FastAPI service on uvicorn, one or more worker processes sharing one run store."""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile

from boundloop.policies.env_settings import check_environment
from boundloop.policies.errors import BoundloopError
from boundloop.service.master_watch import MASTER_ENV

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

    The settings and the directory are checked here first, so a mistake is one clear error, not a worker crash.
    """
    import uvicorn

    from boundloop.service.settings import ServiceSettings
    from boundloop.service.state import open_directory

    if args.workers < 1:
        raise BoundloopError("--workers must be at least 1")
    if args.demo and (args.index or args.directory or os.environ.get("BOUNDLOOP_INDEX")
                      or os.environ.get("BOUNDLOOP_DIRECTORY")):
        raise BoundloopError(DEMO_CONFLICT)
    if args.index:
        os.environ["BOUNDLOOP_INDEX"] = args.index
    if args.directory:
        os.environ["BOUNDLOOP_DIRECTORY"] = args.directory
    os.environ["BOUNDLOOP_DEMO"] = "1" if args.demo else ""
    if args.access_log:
        os.environ["BOUNDLOOP_ACCESS_LOG"] = args.access_log
    check_environment()  # every numeric and enumerated BOUNDLOOP_* setting: one clear line, not a worker's crash
    open_directory(ServiceSettings.from_env())
    metrics_dir = None
    if args.workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Each worker writes its samples here; /metrics on any worker sums them all.
        metrics_dir = tempfile.mkdtemp(prefix="boundloop-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    os.environ[MASTER_ENV] = str(os.getpid())  # workers leave when this process dies (service.master_watch)
    try:
        # proxy_headers=False: uvicorn would believe X-Forwarded-For from 127.0.0.1; the app reads forwarded
        # headers from BOUNDLOOP_TRUSTED_PROXIES only (service.forwarded)
        uvicorn.run(APP_FACTORY, factory=True, host=args.host, port=args.port, workers=args.workers,
                    log_level=args.log_level, access_log=False, proxy_headers=False)
    finally:
        if metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0
