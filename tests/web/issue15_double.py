"""Issue 15's routes as its contract states them, put in front of the real server by Playwright routing.

The server does not have them yet; this double lets the page's conversation and feedback code run against the
contract now: `conversation_id` on `POST /ask/stream` (always one in the result), `GET /conversations` (own,
newest first), `GET /conversations/{id}` (turns), `POST /runs/{run_id}/feedback` ({"score", "comment"?}).
Answers still come from the real loop; only the conversation bookkeeping is the double's.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any


def _frames(text: str) -> list[tuple[str, dict]]:
    frames = []
    for frame in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in frame.splitlines())
        frames.append((lines["event"], json.loads(lines["data"])))
    return frames


def _sse(frames: list[tuple[str, dict]]) -> str:
    return "".join(f"event: {kind}\ndata: {json.dumps(data)}\n\n" for kind, data in frames)


class Issue15Double:
    def __init__(self) -> None:
        self.conversations: dict[str, dict[str, Any]] = {
            "c-earlier": {"title": "Parking in Toronto", "updated_at": "2026-11-30T09:00:00Z", "turns": []}}
        self.asked: list[dict[str, Any]] = []
        self.feedback: list[tuple[str, dict[str, Any]]] = []
        self.feedback_status = 200

    def install(self, page: Any) -> None:
        page.route("**/openapi.json", self._openapi)
        page.route(re.compile(r".*/conversations$"), self._list)
        page.route(re.compile(r".*/conversations/[^/?]+$"), self._detail)
        page.route("**/ask/stream", self._ask)
        page.route(re.compile(r".*/runs/[0-9a-f]{32}/feedback$"), self._rate)

    def _openapi(self, route: Any) -> None:
        response = route.fetch()
        spec = response.json()
        spec["paths"]["/conversations"] = {"get": {}}
        spec["paths"]["/conversations/{conversation_id}"] = {"get": {}, "delete": {}}
        spec["paths"]["/runs/{run_id}/feedback"] = {"post": {}}
        route.fulfill(response=response, json=spec)

    def _list(self, route: Any) -> None:
        newest = sorted(self.conversations.items(), key=lambda item: item[1]["updated_at"], reverse=True)
        route.fulfill(json={"conversations": [
            {"conversation_id": cid, "title": c["title"], "updated_at": c["updated_at"]} for cid, c in newest]})

    def _detail(self, route: Any) -> None:
        cid = route.request.url.rsplit("/", 1)[1]
        if cid not in self.conversations:
            route.fulfill(status=404, json={"detail": f"no conversation {cid}"})
            return
        route.fulfill(json={"conversation_id": cid, "turns": self.conversations[cid]["turns"]})

    def _ask(self, route: Any) -> None:
        body = route.request.post_data_json
        self.asked.append(dict(body))
        cid = body.pop("conversation_id", None) or f"c-{len(self.conversations)}"
        response = route.fetch(post_data=json.dumps(body))  # the real server refuses the field for now
        frames = _frames(response.text())
        kind, result = frames[-1]
        if kind == "result":
            result.update(conversation_id=cid, standalone_question=body["question"])
            conversation = self.conversations.setdefault(cid, {"title": body["question"], "turns": []})
            conversation["updated_at"] = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
            conversation["turns"].append({key: result.get(key) for key in (
                "standalone_question", "answer", "short_answer", "status", "run_id")}
                | {"question": body["question"], "time": conversation["updated_at"]})
        route.fulfill(response=response, body=_sse(frames))

    def _rate(self, route: Any) -> None:
        run_id = route.request.url.rsplit("/", 2)[1]
        if self.feedback_status != 200:
            route.fulfill(status=self.feedback_status, json={"detail": "Not Found"})
            return
        self.feedback.append((run_id, route.request.post_data_json))
        route.fulfill(json={"run_id": run_id})
