"""The FastAPI app: `create_app()` for tests and for uvicorn's `--factory`, mountable in the LangGraph server.

    uvicorn --factory service.app:create_app --workers 2

Without a `state`, the app builds one from the environment (`ServiceSettings.from_env`) when it starts, in each
worker process; all workers open the same run store.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from boundloop.service.access_log import AccessLogFormat, AccessLogMiddleware, format_from_env
from boundloop.service.error_handlers import install_error_handlers
from boundloop.service.forwarded import TrustedProxyMiddleware
from boundloop.service.master_watch import watch_master
from boundloop.service.middleware import BodyLimitMiddleware, RequestMetricsMiddleware
from boundloop.service.rate_limit_middleware import RateLimitMiddleware
from boundloop.service.rate_store import RateCounter
from boundloop.service.routes_ask import router as ask_router
from boundloop.service.routes_conversations import router as conversations_router
from boundloop.service.routes_ingest import router as ingest_router
from boundloop.service.routes_me import router as me_router
from boundloop.service.routes_ops import router as ops_router
from boundloop.service.routes_runs import router as runs_router
from boundloop.service.routes_signin import router as signin_router
from boundloop.service.settings import ServiceSettings
from boundloop.service.state import ServiceState, build_state
from boundloop.service.web import install_web
from boundloop.service.web import router as web_router

ROUTERS = (ask_router, conversations_router, runs_router, ingest_router, ops_router, me_router)


def create_app(state: ServiceState | None = None,
               state_factory: Callable[[], ServiceState] | None = None,
               access_log_format: AccessLogFormat | None = None) -> FastAPI:
    """The service over `state`; or over `state_factory()` (default: from the environment), built at startup.

    The access log's form is `access_log_format`, else `BOUNDLOOP_ACCESS_LOG` (see `service.access_log`).
    """
    settings = state.settings if state else ServiceSettings.from_env()
    factory = state_factory or (lambda: build_state(settings))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if state is not None:
            app.state.boundloop = state
            yield
            return
        watch_master()
        app.state.boundloop = await run_in_threadpool(factory)  # opens files and models: off the event loop
        try:
            yield
        finally:
            await run_in_threadpool(app.state.boundloop.close)

    app = FastAPI(
        title="boundloop",
        summary="Enterprise generative search with a bounded agentic loop.",
        description="Every route but /healthz and /metrics needs `Authorization: Bearer <key or JWT>` or "
                    "`X-API-Key: <key>`; the user is the credential's owner, never a field of the request.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None, redoc_url=None,  # service.web serves /docs from the package, with no CDN
    )
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(signin_router)  # the web page's sign-in with the identity provider (404 unless configured)
    install_web(app)
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware, limits={"/ingest": settings.max_ingest_bytes},
                       default=settings.max_body_bytes)
    app.add_middleware(RateLimitMiddleware, per_key=settings.rate_per_key, per_address=settings.rate_per_address,
                       counter=RateCounter(settings.rate_storage, settings.workers))
    paths = frozenset(route.path for router in ROUTERS for route in router.routes if hasattr(route, "path"))
    app.add_middleware(RequestMetricsMiddleware, paths=paths)
    app.add_middleware(AccessLogMiddleware, form=access_log_format or format_from_env(),
                       paths=paths | {route.path for route in web_router.routes if hasattr(route, "path")})
    app.add_middleware(TrustedProxyMiddleware, trusted=settings.trusted_proxies)  # outermost: the rate limit's address
    return app
