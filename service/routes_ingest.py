"""`POST /ingest`: members of the `admin` group add or update documents, from JSONL or as files; all or nothing."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from boundloop.retrieval.ingest import IngestReport
from boundloop.service.dependencies import AdminUser, State
from boundloop.service.errors import InvalidInput, UnsupportedMediaType
from boundloop.service.ingest_files import UploadedFile, ingest_files, upload_acl
from boundloop.service.ingest_upload import ingest_upload
from boundloop.service.models import IngestResponse, error_responses

router = APIRouter(tags=["ingest"])
JSONL_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines", "text/plain")
MAX_FILES = 1000
"""Files in one upload (the body's size, `BOUNDLOOP_MAX_INGEST_BYTES`, bounds it too)."""
ERRORS = error_responses(401, 403, 413, 415, 422, 500, 503)
BODY_DOC = {
    "requestBody": {
        "required": True,
        "description": 'JSONL, one document per line: {"id", "title", "text", "acl": [groups], "source"?, '
                       '"metadata"?}, as the body (application/x-ndjson) or as the `file` field of a multipart form. '
                       "Or documents as files: one `files` field per file (.docx .pptx .xlsx .csv .eml .msg .pdf .md "
                       '.txt .html), with an `acl` field holding their groups as a JSON list (["finance"]).',
        "content": {
            "application/x-ndjson": {"schema": {"type": "string"}},
            "multipart/form-data": {"schema": {"type": "object", "properties": {
                "file": {"type": "string", "format": "binary", "description": "JSONL"},
                "files": {"type": "array", "items": {"type": "string", "format": "binary"},
                          "description": "documents, read as folder ingest reads them"},
                "acl": {"type": "string", "description": 'the files\' groups, a JSON list: ["finance"]'},
            }}},
        },
    }
}


async def _form_ingest(form: FormData, state: State, user: str) -> IngestReport:
    """A multipart form: `file` holds JSONL (as ever), or `files` hold documents under the form's `acl`."""
    jsonl, files = form.getlist("file"), form.getlist("files")
    acl = form.get("acl")
    if jsonl and (files or acl is not None):
        raise InvalidInput("send JSONL in 'file' or documents in 'files' with their 'acl', not both")
    if files:
        if not all(isinstance(upload, UploadFile) for upload in files):
            raise InvalidInput("each 'files' field must be a file")
        uploads = [UploadedFile(upload.filename or "", await upload.read()) for upload in files
                   if isinstance(upload, UploadFile)]
        groups = upload_acl(acl if isinstance(acl, str) else None if acl is None else "")
        return await run_in_threadpool(ingest_files, state.backend, state.encoder, uploads, groups, f"api:{user}:")
    if len(jsonl) != 1 or not isinstance(jsonl[0], UploadFile):
        raise InvalidInput("the multipart form needs a 'file' field holding the JSONL, or 'files' fields holding "
                           "documents")
    data, name = await jsonl[0].read(), jsonl[0].filename or "upload.jsonl"
    return await run_in_threadpool(ingest_upload, state.backend, state.encoder, data, f"api:{user}:{name}")


@router.post("/ingest", response_model=IngestResponse, responses=ERRORS, openapi_extra=BODY_DOC,
             summary="Add or update documents (admin group only)")
async def ingest_documents(request: Request, user: AdminUser, state: State) -> IngestResponse:
    """Every line (or file) must load, or nothing is written; unchanged documents are skipped."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "multipart/form-data":
        async with request.form(max_files=MAX_FILES, max_fields=8) as form:
            report = await _form_ingest(form, state, user)
    elif content_type in JSONL_TYPES:
        data = await request.body()
        report = await run_in_threadpool(ingest_upload, state.backend, state.encoder, data,
                                         f"api:{user}:request body")
    else:
        raise UnsupportedMediaType(f"send JSONL as {', '.join(JSONL_TYPES)}, or files as multipart/form-data")
    return IngestResponse.model_validate(report.as_dict())
