"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for tests and the LLM benchmark.

Each request to `/v1/chat/completions` takes the next scripted `Reply` (or asks `responder` for one). Structured
answers are rendered the way the request asked for them: a forced tool call when it sent `tools`, message content
otherwise (json_schema / json_object). Every reply carries `usage`, so token counts can be checked.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Kind = Literal["answer", "status", "hang", "trickle", "garbage"]


@dataclass(frozen=True)
class Reply:
    """What the server does with one request."""

    kind: Kind = "answer"
    payload: Any = None
    """A dict (sent as JSON) or a string (sent verbatim as the model's output)."""
    delay: float = 0.0
    """Seconds to wait before answering."""
    status: int = 200
    prompt_tokens: int = 11
    completion_tokens: int = 7
    interval: float = 0.2
    """For `trickle`: seconds between the body's pieces."""


def answer(payload: Any, delay: float = 0.0, prompt_tokens: int = 11, completion_tokens: int = 7) -> Reply:
    return Reply("answer", payload, delay, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


@dataclass
class Seen:
    """A request the server received, and how long the server spent on it."""

    body: dict[str, Any]
    started: float
    seconds: float = 0.0
    path: str = ""


def schema_name(body: dict[str, Any]) -> str:
    """The structured-output schema a request asks for (tool name or json_schema name), else ''."""
    if body.get("tools"):
        return str(body["tools"][0]["function"]["name"])
    fmt = body.get("response_format") or {}
    return str(fmt.get("json_schema", {}).get("name", ""))


def completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    text = reply.payload if isinstance(reply.payload, str) else json.dumps(reply.payload)
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if body.get("tools"):
        call = {"id": "call_1", "type": "function", "function": {"name": schema_name(body), "arguments": text}}
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
    usage = {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
             "total_tokens": reply.prompt_tokens + reply.completion_tokens}
    return {"id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "stub"), "usage": usage,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}]}


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up mid-reply are the point of several tests


@dataclass
class StubServer:
    """Start with `start()` (or as a context manager); `url` is the base URL to give the OpenAI client."""

    script: list[Reply] = field(default_factory=list)
    responder: Callable[[dict[str, Any]], Reply] | None = None
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._server = _QuietServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self.script:
                return self.script.pop(0)
        return self.responder(body) if self.responder else Reply("status", status=503)

    def endpoint_seconds(self) -> float:
        return sum(s.seconds for s in self.seen)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            wbufsize = 1 << 16  # buffered, so a reply leaves in one segment when flushed

            def setup(self) -> None:
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                """`/stats`: requests served and the seconds the server spent on them (for the benchmark)."""
                self._seen = None
                data = json.dumps({"requests": len(stub.seen), "seconds": stub.endpoint_seconds()}).encode()
                self._head(200, len(data))
                self.wfile.write(data)
                self.wfile.flush()

            def do_POST(self) -> None:  # noqa: N802
                started = time.perf_counter()
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                self._seen: Seen | None = Seen(body, started, path=self.path)
                seen = self._seen
                with stub._lock:
                    stub.seen.append(seen)
                try:
                    reply = stub._next(body)
                except Exception:  # a responder that cannot answer this request: a server error, not a hang-up
                    reply = Reply("status", status=500)
                try:
                    self._serve(body, reply)
                except OSError:
                    pass  # the client gave up: that is what the timeout tests want
                if not seen.seconds:  # no reply was started (hang, or the client left during the delay)
                    seen.seconds = time.perf_counter() - started

            def _serve(self, body: dict[str, Any], reply: Reply) -> None:
                if reply.kind == "hang":
                    stub._stop.wait()
                    return
                if reply.delay and stub._stop.wait(reply.delay):
                    return
                if reply.kind == "status":
                    data = json.dumps({"error": {"message": "scripted failure", "type": "server_error"}}).encode()
                    self._head(reply.status, len(data))
                    self.wfile.write(data)
                    self.wfile.flush()
                    return
                data = b'{"id": "x", "choices": [' if reply.kind == "garbage" else json.dumps(
                    completion(body, reply)).encode()
                self._head(200, len(data))
                if reply.kind != "trickle":
                    self.wfile.write(data)
                    self.wfile.flush()
                    return
                for start in range(0, len(data), 8):  # a slow body: each piece well inside any read timeout
                    self.wfile.write(data[start:start + 8])
                    self.wfile.flush()
                    if stub._stop.wait(reply.interval):
                        return

            def _head(self, status: int, length: int) -> None:
                seen = getattr(self, "_seen", None)
                if seen is not None:  # the endpoint's time ends as its reply starts
                    seen.seconds = time.perf_counter() - seen.started
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(length))
                self.end_headers()

        return Handler

    def start(self) -> StubServer:
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def refused_url() -> str:
    """A base URL on a local port nothing listens on (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
