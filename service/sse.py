"""Server-sent events framing: one `event:` line and one `data:` line of JSON per event."""

from __future__ import annotations

import json
from typing import Any

SSE_MEDIA_TYPE = "text/event-stream"


def sse_event(event: str, data: Any) -> str:
    """One SSE frame; JSON never contains a raw newline, so one data line is enough."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
