"""The web page for people who ask, at `/`, and `/docs`: both served from the installed package, nothing from a CDN.

The page is `service/static/index.html` with plain CSS and JavaScript modules under `static/assets/` (no build
step). `/docs` is Swagger UI
from the `swagger-ui-bundle-v2` package (the unmodified swagger-ui-dist files, Apache-2.0).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from swagger_ui_bundle import swagger_ui_path

from boundloop.policies.limits import BudgetLimits, shown
from boundloop.service.models import LimitView

STATIC = Path(__file__).parent / "static"
ASSETS = STATIC / "assets"
ASSETS_PATH = "/assets"
SWAGGER_PATH = "/docs/assets"
# The page loads only its own files and talks only to its own origin; inline script and style are refused.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}

router = APIRouter(include_in_schema=False)


class _Assets(StaticFiles):
    """Static files that browsers revalidate (ETag) before reuse, so an upgrade shows at once."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


@router.get("/")
async def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)


@router.get(f"{ASSETS_PATH}/js/limits.js")
async def limit_names() -> Response:
    """The page's words for each per-run limit, made from their declaration: the page keeps no list of its own."""
    names = [LimitView.of(bound).model_dump() for bound in shown(BudgetLimits())]
    return Response(f"// Made from boundloop.policies.limits: each limit's names, in the order to show them.\n"
                    f"export const LIMITS = {json.dumps(names, indent=2)};\n",
                    media_type="text/javascript; charset=utf-8",
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


@router.get("/docs")
async def swagger_ui(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "").rstrip("/")
    return get_swagger_ui_html(
        openapi_url=root + request.app.openapi_url, title=f"{request.app.title} - API",
        swagger_js_url=f"{root}{SWAGGER_PATH}/swagger-ui-bundle.js",
        swagger_css_url=f"{root}{SWAGGER_PATH}/swagger-ui.css",
        swagger_favicon_url=f"{root}{ASSETS_PATH}/favicon.svg",
        oauth2_redirect_url=root + "/docs/oauth2-redirect",
        swagger_ui_parameters={"validatorUrl": None},  # its default validator is a remote service
    )


@router.get("/docs/oauth2-redirect")
async def swagger_ui_redirect() -> HTMLResponse:
    return get_swagger_ui_oauth2_redirect_html()


@router.get("/redoc")
async def redoc() -> RedirectResponse:
    """ReDoc would load from a CDN; the local Swagger UI documents the same OpenAPI document."""
    return RedirectResponse("docs")


def install_web(app: FastAPI) -> None:
    """Serve the page at `/`, its assets under `/assets`, and Swagger UI at `/docs`, all from the package."""
    app.include_router(router)
    app.mount(ASSETS_PATH, _Assets(directory=ASSETS), name="assets")
    app.mount(SWAGGER_PATH, _Assets(directory=str(swagger_ui_path)), name="swagger-ui")
