"""`GET /healthz` and `GET /metrics`: unauthenticated, and free of any user's data."""

from __future__ import annotations

from fastapi import APIRouter, Response

from service import metrics
from service.dependencies import State
from service.models import Health

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_model=Health, summary="Liveness")
async def healthz(state: State) -> Health:
    return Health(status="ok", checkpoints=state.store.kind)


@router.get("/metrics", response_class=Response, summary="Prometheus metrics",
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}})
async def prometheus_metrics() -> Response:
    body, content_type = metrics.render()
    return Response(body, media_type=content_type)
