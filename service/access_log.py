"""The access log: one line per request with its method, route template, status, duration and user.

`BOUNDLOOP_ACCESS_LOG` chooses the form: `text` (the default), `json` (one object per line) or `off`. Lines go to
the `boundloop.access` logger (standard error unless the deployment configures that logger). The route is the
template (`/runs/{run_id}`), never the raw path, so run ids and query strings stay out of the log; a static file
(which has no template) is logged by its path, a request that matches nothing as `-`. The user is the credential's
owner once authenticated, else `-`.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Literal, get_args

from starlette.types import ASGIApp, Scope

from boundloop.policies.settings import settings
from boundloop.service.response_watch import ReportingMiddleware, ResponseWatch

AccessLogFormat = Literal["text", "json", "off"]
FORMATS: tuple[str, ...] = get_args(AccessLogFormat)
ENV = "BOUNDLOOP_ACCESS_LOG"
LOGGER = logging.getLogger("boundloop.access")
USER_KEY = "user"  # request.state.user, set by `service.dependencies.current_user`


def format_from_env() -> AccessLogFormat:
    value: AccessLogFormat = settings().access_log  # type: ignore[assignment]  # its rule allows FORMATS
    return value


def _default_handler() -> None:
    """Standard error, one bare line per record, unless the deployment has configured the logger itself."""
    if not LOGGER.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.propagate = False
    if LOGGER.level == logging.NOTSET:
        LOGGER.setLevel(logging.INFO)


def access_line(form: AccessLogFormat, method: str, route: str, status: int, ms: float, user: str) -> str:
    stamp = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if form == "json":
        return json.dumps({"time": stamp, "method": method, "route": route, "status": status, "ms": round(ms, 1),
                           "user": user})
    return f"{stamp} {method} {route} {status} {ms:.1f}ms user={user}"


class AccessLogMiddleware(ReportingMiddleware):
    """Logs each request when it ends, unless it went to a route that is not the service's (`paths`).

    When the app is mounted in the LangGraph server, the server's own routes are its own to log.
    """

    def __init__(self, app: ASGIApp, form: AccessLogFormat, paths: frozenset[str]) -> None:
        super().__init__(app)
        self.form = form
        self.paths = paths
        if form != "off":
            _default_handler()

    def reporting(self) -> bool:
        return self.form != "off"

    def report(self, scope: Scope, route: str | None, watch: ResponseWatch) -> None:
        if route is None or route in self.paths:
            if route is None:  # static files have no template; a request that matched nothing is `-`
                route = "-" if watch.status == 404 else scope.get("path", "-")
            user = scope.get("state", {}).get(USER_KEY) or "-"
            LOGGER.info(access_line(self.form, scope["method"], route, watch.status, watch.seconds * 1000, user))
