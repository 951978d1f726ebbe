"""`POST /ingest`: members of the `admin` group add or update documents from JSONL; the write is all or nothing."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from boundloop.service.dependencies import AdminUser, State
from boundloop.service.errors import InvalidInput, UnsupportedMediaType
from boundloop.service.ingest_upload import ingest_upload
from boundloop.service.models import IngestResponse, error_responses

router = APIRouter(tags=["ingest"])
JSONL_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines", "text/plain")
ERRORS = error_responses(401, 403, 413, 415, 422, 500, 503)
BODY_DOC = {
    "requestBody": {
        "required": True,
        "description": 'One document per line: {"id", "title", "text", "acl": [groups], "source"?, "metadata"?}. '
                       "Send it as the body (application/x-ndjson) or as the `file` field of a multipart form.",
        "content": {
            "application/x-ndjson": {"schema": {"type": "string"}},
            "multipart/form-data": {"schema": {"type": "object", "required": ["file"],
                                               "properties": {"file": {"type": "string", "format": "binary"}}}},
        },
    }
}


async def _read_upload(request: Request) -> tuple[bytes, str]:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "multipart/form-data":
        form = await request.form(max_files=1, max_fields=1)
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise InvalidInput("the multipart form needs a 'file' field holding the JSONL")
        return await upload.read(), upload.filename or "upload.jsonl"
    if content_type in JSONL_TYPES:
        return await request.body(), "request body"
    raise UnsupportedMediaType(f"send JSONL as {', '.join(JSONL_TYPES)} or multipart/form-data")


@router.post("/ingest", response_model=IngestResponse, responses=ERRORS, openapi_extra=BODY_DOC,
             summary="Add or update documents (admin group only)")
async def ingest_documents(request: Request, user: AdminUser, state: State) -> IngestResponse:
    """Every line must load, or nothing is written; unchanged documents are skipped."""
    data, name = await _read_upload(request)
    report = await run_in_threadpool(ingest_upload, state.backend, state.encoder, data, f"api:{user}:{name}")
    return IngestResponse.model_validate(report.as_dict())
