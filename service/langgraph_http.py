"""The FastAPI app as the LangGraph server mounts it (`http.app` in langgraph.json), sharing the graph's state."""

from __future__ import annotations

from boundloop.service.app import create_app
from boundloop.service.state import shared_state

app = create_app(state_factory=shared_state)
