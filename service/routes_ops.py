"""`GET /healthz` and `GET /metrics`: unauthenticated, and free of any user's data."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from boundloop.service import metrics
from boundloop.service.dependencies import State
from boundloop.service.health import problems
from boundloop.service.models import Health

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_model=Health, summary="Liveness, and whether the run store and index can write",
            responses={503: {"model": Health, "description": "Degraded: the reasons say what cannot write."}})
async def healthz(state: State) -> JSONResponse:
    found = await run_in_threadpool(problems, state)  # it writes a row: off the event loop
    health = Health(status="degraded" if found else "ok", checkpoints=state.store.kind, reasons=found)
    return JSONResponse(health.model_dump(), status_code=503 if found else 200)


@router.get("/metrics", response_class=Response, summary="Prometheus metrics",
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}})
async def prometheus_metrics() -> Response:
    body, content_type = metrics.render()
    return Response(body, media_type=content_type)
