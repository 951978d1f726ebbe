"""Server-sent events through sse-starlette: one `event:` line and one `data:` line of JSON per event.

sse-starlette watches for the client's disconnect while the stream runs and cancels the stream's iterator when it
comes (`service.streaming` then stops the run), and keeps idle proxies open with a comment line every 15 s.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from sse_starlette import EventSourceResponse, ServerSentEvent

SSE_MEDIA_TYPE = "text/event-stream"
SEPARATOR = "\n"  # the frames' line ends, as before the library: `event: span\ndata: {...}\n\n`


def sse_event(event: str, data: Any) -> ServerSentEvent:
    """One SSE frame; JSON never contains a raw newline, so one data line is enough."""
    return ServerSentEvent(event=event, data=json.dumps(data, separators=(",", ":")), sep=SEPARATOR)


def sse_response(frames: AsyncIterator[ServerSentEvent]) -> EventSourceResponse:
    """The streaming response over `frames`; never cached."""
    return EventSourceResponse(frames, sep=SEPARATOR, headers={"Cache-Control": "no-store"})
